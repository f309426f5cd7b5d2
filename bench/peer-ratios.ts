// The reference-to-peer ratio of POST /assistants from alternating rounds: the median of the
// rounds' ratios, with their spread, so one noisy sample does not make the figure.
import { round } from './support/load.ts';

export interface PeerRate {
  okPerSecond: number;
  createAssistantPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface PeerFigures {
  rounds: { reference: PeerRate; peer: PeerRate; createAssistantRatio: number }[];
  /** Medians over the rounds. */
  reference: { createAssistantPerSecond: number };
  peer: { createAssistantPerSecond: number };
  /** The median of the rounds' ratios, and the lowest and highest. */
  createAssistantRatio: number;
  createAssistantRatioSpread: [number, number];
}

export function peerRatios(rounds: { reference: PeerRate; peer: PeerRate }[]): PeerFigures {
  const withRatio = rounds.map((r) => ({ ...r, createAssistantRatio: round(r.reference.createAssistantPerSecond / r.peer.createAssistantPerSecond, 1) }));
  const ratios = withRatio.map((r) => r.createAssistantRatio);
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = sorted.length / 2;
    return Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!;
  };
  return {
    rounds: withRatio,
    reference: { createAssistantPerSecond: Math.round(median(rounds.map((r) => r.reference.createAssistantPerSecond))) },
    peer: { createAssistantPerSecond: Math.round(median(rounds.map((r) => r.peer.createAssistantPerSecond))) },
    createAssistantRatio: round(median(ratios), 1),
    createAssistantRatioSpread: [Math.min(...ratios), Math.max(...ratios)],
  };
}
