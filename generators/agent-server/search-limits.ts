// The `limit` values a search's paging property sends (spec 4.2's limit and offset): the edges the
// spec's types allow beside the middle. 1; exactly the set; one more than the set; and 10, the
// largest limit in use (the default the field notes show: the spec documents no largest limit).
// `limit: 0` and an offset past the end are sent by the paging test itself.
import fc from 'fast-check';

/** The default page size the field notes show, and the largest limit the paging property sends. */
export const LARGEST_LIMIT = 10;

/** The edge values of `limit` for a set of `setSize` matching items. */
export const limitEdges = (setSize: number): number[] => [...new Set([1, setSize, setSize + 1, LARGEST_LIMIT])];

/** Limits for paging a set of `setSize` items: an edge or a value in the middle, about half and half. */
export const pageLimits = (setSize: number): fc.Arbitrary<number> => fc.oneof(fc.constantFrom(...limitEdges(setSize)), fc.integer({ min: 1, max: 6 }));
