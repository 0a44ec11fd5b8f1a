/**
 * A stand-in for the browser's EventSource that a test drives: open, messages, errors. Stub it with
 * `vi.stubGlobal('EventSource', FakeEventSource)`; {@link FakeEventSource.made} lists the sources opened.
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static made: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  private readonly handlers = new Map<string, (event: { data: string; lastEventId: string }) => void>();

  constructor(readonly url: string) {
    FakeEventSource.made.push(this);
  }

  addEventListener(type: string, handler: (event: { data: string; lastEventId: string }) => void): void {
    this.handlers.set(type, handler);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  open(): void {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }

  emit(type: string, data: unknown, lastEventId = ''): void {
    this.handlers.get(type)?.({ data: JSON.stringify(data), lastEventId });
  }

  /** The browser gives up (a 401 or any answer but a stream), or (`closed` false) tries again by itself. */
  fail(closed: boolean): void {
    this.readyState = closed ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.onerror?.();
  }
}
