// The error a command sequence (`fc.commands`) throws when the target disagrees with the pure
// model: it names the requirement broken, with what the model expected and what was seen.
export class ModelMismatch extends Error {
  constructor(
    readonly requirement: string,
    message: string,
    readonly expected: unknown,
    readonly seen: unknown,
  ) {
    super(message);
    this.name = 'ModelMismatch';
  }
}
