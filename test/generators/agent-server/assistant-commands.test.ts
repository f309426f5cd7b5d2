// The assistant command sequences pass a server that keeps section 3's rules and catch a server
// that breaks any one of them, naming the broken rule.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { assistantCommands, runAssistantCommands } from '../../../generators/agent-server/assistant-commands.ts';
import { AssistantModel } from '../../../generators/agent-server/assistant-model.ts';
import { ModelMismatch } from '../../../generators/model-mismatch.ts';
import { memoryAssistants, type Defect } from './memory-assistants.ts';

async function firstMismatch(defect: Defect): Promise<ModelMismatch | undefined> {
  const details = await fc.check(
    fc.asyncProperty(assistantCommands(10), async (commands) => {
      await runAssistantCommands(memoryAssistants(defect), commands);
    }),
    { numRuns: 300, seed: 42 },
  );
  const error = details.errorInstance;
  return error instanceof ModelMismatch ? error : undefined;
}

describe('assistant command sequences', () => {
  test('a server keeping the rules passes every sequence', async () => {
    await fc.assert(
      fc.asyncProperty(assistantCommands(10), async (commands) => {
        await runAssistantCommands(memoryAssistants(), commands);
      }),
      { numRuns: 100 },
    );
  });

  test.each<[Defect, string[]]>([
    ['merge-on-update', ['AS-ASST-003']],
    ['ignore-set-latest', ['AS-ASST-004']],
    ['keep-after-delete', ['AS-ASST-005']],
    ['search-everything', ['AS-SRCH-001']],
    ['first-version-0', ['AS-ASST-002', 'AS-ASST-004']],
    ['run-uses-first-version', ['AS-ASST-003', 'AS-ASST-004']],
  ])('a server with the defect %s is caught as breaking %s', async (defect, rules) => {
    const mismatch = await firstMismatch(defect);
    expect(mismatch, `no sequence caught ${defect}`).toBeDefined();
    expect(rules).toContain(mismatch!.requirement);
  });
});

describe('the rules a sequence that agrees judged', () => {
  /** The rules each agreeing sequence judged, and the rules of the sequences that disagreed. */
  async function judgedBy(defect?: Defect): Promise<{ agreed: Set<string>[]; mismatched: string[] }> {
    const agreed: Set<string>[] = [];
    const mismatched: string[] = [];
    await fc.assert(
      fc.asyncProperty(assistantCommands(10), async (commands) => {
        const judged = new Set<string>();
        try {
          await runAssistantCommands(memoryAssistants(defect), commands, judged);
          agreed.push(judged);
        } catch (error) {
          if (!(error instanceof ModelMismatch)) throw error;
          mismatched.push(error.requirement);
        }
      }),
      { numRuns: 200, seed: 7 },
    );
    return { agreed, mismatched };
  }

  test('a right server: paging (AS-SRCH-002) is judged by the sequences whose search listed someone', async () => {
    const { agreed, mismatched } = await judgedBy();
    expect(mismatched).toEqual([]);
    expect(agreed.filter((j) => j.has('AS-SRCH-002')).length).toBeGreaterThan(0);
    expect(agreed.every((j) => j.has('AS-ASST-001'))).toBe(true);
  });

  test('a search that answers [] never passes paging: an agreeing sequence judged no AS-SRCH-002, a disagreeing one fails the filter rule', async () => {
    const { agreed, mismatched } = await judgedBy('search-empty');
    expect(agreed.length).toBeGreaterThan(0);
    expect(agreed.filter((j) => j.has('AS-SRCH-002'))).toEqual([]);
    expect(agreed.filter((j) => j.has('AS-SRCH-001'))).toEqual([]);
    expect(new Set(mismatched)).toEqual(new Set(['AS-SRCH-001']));
  });
});

describe('the assistant model', () => {
  test('create makes version 1 active; update adds a version and activates it; set-latest switches', () => {
    const model = new AssistantModel();
    const a = model.create({ a: 1 });
    expect(model.activeContext(a)).toEqual({ a: 1 });
    model.update(a, { b: 2 });
    expect(a.active).toBe(2);
    expect(model.activeContext(a)).toEqual({ b: 2 });
    expect(model.otherContexts(a)).toEqual([{ a: 1 }]);
    model.setLatest(a, 1);
    expect(model.activeContext(a)).toEqual({ a: 1 });
    expect(a.activatedBy).toBe('set-latest');
    expect(() => model.setLatest(a, 3)).toThrow(RangeError);
  });

  test('delete removes the assistant from the live set; picks keep designating live ones', () => {
    const model = new AssistantModel();
    const a = model.create({});
    const b = model.create({});
    model.delete(a);
    expect(model.live()).toEqual([b]);
    expect(model.pick(0)).toBe(b);
    expect(model.pick(7)).toBe(b);
    model.delete(b);
    expect(model.pick(0)).toBeUndefined();
  });
});
