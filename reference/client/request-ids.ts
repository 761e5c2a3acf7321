/** Integer request ids, each issued once. */
export class RequestIds {
  private last = 0;

  next(): number {
    return ++this.last;
  }
}
