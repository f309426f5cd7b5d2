// The error the example consumer clients throw for a refused request: its status and body, so a
// consumer can act on a 404's detail or a 422's messages.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`answered ${status}`);
  }
}

/** A JSON answer, or an ApiError for any status outside 2xx. */
export async function jsonAnswer<T>(response: Response): Promise<T> {
  const text = await response.text();
  const body: unknown = text.length > 0 ? JSON.parse(text) : undefined;
  if (!response.ok) throw new ApiError(response.status, body);
  return body as T;
}
