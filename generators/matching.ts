// Strings matching a regular expression, as fc.stringMatching gives them, with the arbitrary built
// when it first generates rather than when its module loads. Building one takes milliseconds
// (fast-check works out how each character class spells its list of tricky strings), a module
// holds several, and a suite worker that loads a module often uses few of them: a one-requirement
// certification's worker built a dozen it never drew from. The built arbitrary does all the work,
// so values and shrinking are those fc.stringMatching gives.
import fc from 'fast-check';

class BuiltOnUse<T> extends fc.Arbitrary<T> {
  private built: fc.Arbitrary<T> | undefined;

  constructor(private readonly build: () => fc.Arbitrary<T>) {
    super();
  }

  private get arbitrary(): fc.Arbitrary<T> {
    if (this.built) return this.built;
    // Building tries each character class on a list of tricky strings, and each miss throws an
    // error that fast-check catches: without their stack traces it takes half the CPU (the same values).
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return (this.built = this.build());
    } finally {
      Error.stackTraceLimit = limit;
    }
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.arbitrary.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arbitrary.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arbitrary.shrink(value, context);
  }
}

/** fc.stringMatching(regex), built on first use. */
export function matching(regex: RegExp): fc.Arbitrary<string> {
  return new BuiltOnUse(() => fc.stringMatching(regex));
}
