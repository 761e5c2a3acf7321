/** A command line or config the CLI cannot run: exit 2 with the message. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
