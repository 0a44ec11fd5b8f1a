/**
 * Collects the messages one side posts during a turn of its event loop and sends them as one batch
 * when the turn's I/O is done (`setImmediate`). Each message crossing to another process costs a wake-up and a
 * dispatch on the other side; under load one turn serves many requests, so batching pays that once
 * per turn, while a lone message still leaves in the same turn.
 */
export class MessageBatch<T> {
  private messages: T[] = [];
  private scheduled = false;

  /** @param send sends one batch */
  constructor(private readonly send: (messages: T[]) => void) {}

  /** Queues `message`. */
  push(message: T): void {
    this.messages.push(message);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flush);
  }

  private readonly flush = (): void => {
    const messages = this.messages;
    this.messages = [];
    this.scheduled = false;
    this.send(messages);
  };
}
