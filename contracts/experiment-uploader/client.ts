// The experiment-uploader consumer: uploads an evaluation run made outside the platform (spec
// 4.3). It stands for a consumer team's own code, so it uses plain fetch, nothing of the harness.
import { jsonAnswer } from '../api-error.ts';

export interface UploadRow {
  row_id: string;
  inputs: Record<string, unknown>;
  expected_outputs?: Record<string, unknown>;
  actual_outputs?: Record<string, unknown>;
  start_time: string;
  end_time: string;
}

export interface Upload {
  experiment_name: string;
  experiment_start_time: string;
  experiment_end_time: string;
  dataset_name?: string;
  dataset_id?: string;
  results: UploadRow[];
}

export interface Uploaded {
  dataset: { id: string; name: string };
  experiment: { id: string; name: string };
}

export class ExperimentUploader {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  upload(upload: Upload): Promise<Uploaded> {
    return fetch(`${this.baseUrl}/api/v1/datasets/upload-experiment`, {
      method: 'POST',
      headers: { 'x-api-key': this.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify(upload),
    }).then((response) => jsonAnswer<Uploaded>(response));
  }
}
