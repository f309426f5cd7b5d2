// Assistant search (spec 4.2): the metadata filter, limit and offset. Every search is scoped by a
// metadata tag of its own, so assistants of other tests and other runs never interfere.
import { requirement, type Check } from '../../harness/conformance/index.ts';
import { pageLimits } from '../../generators/agent-server/search-limits.ts';
import { createAssistant, is2xx, is4xx, searchAssistants, searchIds } from './support/assistants.ts';

async function createTagged(t: Check, count: number, metadata: (i: number) => Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  // One after another: creation order is what "newest first" is about.
  for (let i = 0; i < count; i += 1) ids.push((await createAssistant(t, { context: { index: i }, metadata: metadata(i) })).id);
  return ids;
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

requirement('AS-SRCH-001', async (t: Check) => {
  const group = t.name('search');
  const ids = await createTagged(t, 3, (i) => ({ apc_group: group, colour: i === 2 ? 'blue' : 'red' }));
  const cases: [Record<string, unknown>, string[]][] = [
    [{ apc_group: group }, ids],
    [{ apc_group: group, colour: 'red' }, ids.slice(0, 2)],
    [{ apc_group: group, colour: 'blue' }, ids.slice(2)],
    [{ apc_group: group, colour: 'green' }, []],
    [{ apc_group: t.name('unused') }, []],
  ];
  for (const [metadata, expected] of cases) {
    // At most 3 match; a small limit stays inside any page-size limit (not shown).
    const listed = await searchAssistants(t, { metadata, limit: 10 });
    t.expect(
      sameSet(
        listed.map((a) => a.assistant_id),
        expected,
      ),
      {
        // The keys only: the values are this run's own names, in `expected`; the message reads the same every night.
        message: `Search by metadata (${Object.keys(metadata).join(', ')}) did not list exactly the assistants holding it.`,
        expected: { metadata, assistant_ids: expected },
        seen: listed,
      },
    );
  }
}, { cost: { creates: { assistants: 3 } } });

requirement('AS-SRCH-002', async (t: Check) => {
  const group = t.name('pages');
  const ids = await createTagged(t, 5, () => ({ apc_group: group }));
  // A page longer than its limit is seen before the set is known to be right. On a set the filter
  // got wrong it is not judged (a rule about a result set is blocked by the rule that made the set):
  // held back, it is shown as "also seen" beside the blocked rule; on a right set it fails the rule.
  const short = await searchIds(t, { metadata: { apc_group: group }, limit: 2 });
  t.observe(short.length <= 2, { message: `A search with limit 2 listed ${short.length} assistants.`, expected: 'at most 2 assistants', seen: short });
  // Paging is judged on a search whose filter works (AS-SRCH-001): exactly these five, in one page.
  const all = await searchIds(t, { metadata: { apc_group: group }, limit: 10 }, ids);
  t.need(all.length === ids.length, { requirement: 'AS-SRCH-001', message: `A search by metadata listed ${all.length} of the ${ids.length} assistants holding it.`, expected: ids, seen: all });
  // The edges the spec's types allow beside the middle (generators/agent-server/search-limits.ts).
  await t.property(
    pageLimits(ids.length),
    async (limit) => {
      const listed: string[] = [];
      for (let offset = 0; offset <= ids.length; offset += limit) {
        const page = await searchIds(t, { metadata: { apc_group: group }, limit, offset }, ids);
        const expectedSize = Math.max(0, Math.min(limit, ids.length - offset));
        t.expect(page.length === expectedSize, {
          message: `A search with limit ${limit} and offset ${offset} over ${ids.length} matching assistants listed ${page.length}.`,
          expected: `${expectedSize} assistants`,
          seen: page,
        });
        listed.push(...page);
      }
      t.expect(sameSet(listed, ids) && new Set(listed).size === listed.length, {
        message: `Pages of limit ${limit} did not list each matching assistant exactly once.`,
        expected: ids,
        seen: listed,
      });
      // An offset past the end lists nothing.
      const beyond = await searchIds(t, { metadata: { apc_group: group }, limit, offset: ids.length + limit }, ids);
      t.expect(beyond.length === 0, { message: `A search with offset ${ids.length + limit}, past the ${ids.length} matching assistants, listed ${beyond.length}.`, expected: 'no assistant', seen: beyond });
    },
    // Reads of one fixed set: the cases run side by side.
    { numRuns: 6, sideBySide: true },
  );
  // limit 0 is an integer the spec allows: at most 0 assistants. A target may bound its pages (not shown) and refuse it with a 4xx.
  const zero = await t.as.post('/assistants/search', { metadata: { apc_group: group }, limit: 0 });
  const listedByZero = zero.response?.json;
  t.expectOn(zero, is4xx(zero) || (is2xx(zero) && Array.isArray(listedByZero) && listedByZero.length === 0), {
    message: 'A search with limit 0 listed assistants (or neither answered a list nor refused the limit).',
    expected: 'an empty list, or a 4xx refusing the limit',
  });
}, { cost: { creates: { assistants: 5 } } });

requirement('AS-SRCH-003', async (t: Check) => {
  const group = t.name('default-limit');
  const ids = await createTagged(t, 11, () => ({ apc_group: group }));
  const listed = await searchIds(t, { metadata: { apc_group: group } }, ids);
  // A rule about a result set: judged on the set the metadata filter (AS-SRCH-001) makes; when that
  // rule failed, an empty or short set is its echo, and this rule is blocked by it.
  t.expectOnSet(listed, listed.length === 10, {
    basis: ['AS-SRCH-001'],
    made: ids.length,
    message: `Search without limit listed ${listed.length} of 11 matching assistants.`,
    expected: '10 assistants (default limit)',
    seen: listed,
  });
}, { cost: { creates: { assistants: 11 } } });

requirement('AS-SRCH-004', async (t: Check) => {
  const group = t.name('order');
  const ids = await createTagged(t, 3, () => ({ apc_group: group }));
  const listed = await searchIds(t, { metadata: { apc_group: group }, limit: 10 }, ids);
  const newestFirst = [...ids].reverse();
  t.expectOnSet(listed, listed.join() === newestFirst.join(), {
    basis: ['AS-SRCH-001'],
    made: ids.length,
    message: 'Search did not list the assistants newest first.',
    expected: newestFirst,
    seen: listed,
  });
}, { cost: { creates: { assistants: 3 } } });
