// What a run created, and a budget, in words: "1 deployment", never "1 deployments".
import { describe, expect, test } from 'vitest';
import { budgetText, costLines, createdText } from '../../harness/conformance/created.ts';

describe('counts of created things', () => {
  test('one is singular, others plural', () => {
    expect(createdText({ deployments: 1, revisions: 3 })).toBe('1 deployment, 3 revisions');
    expect(createdText({ threads: 2, runs: 1 })).toBe('2 threads, 1 run');
    expect(createdText({})).toBe('nothing');
    expect(budgetText({ deployments: 1, revisions: 1 })).toBe('1 deployment, 1 revision');
    expect(budgetText({ deployments: 4 })).toBe('4 deployments');
  });

  test('the report cost lines say "1 deployment (of at most 2 planned)"', () => {
    const lines = costLines({
      created: { 'control-plane': { deployments: 1, revisions: 2 } },
      planned: { 'control-plane': { creates: { deployments: 2, revisions: 2 } } },
    } as never);
    expect(lines).toEqual(['control-plane: 1 deployment (of at most 2 planned), 2 revisions (of at most 2 planned)']);
  });
});
