/**
 * One Server-Sent Events stream of JSON-RPC messages (basic/transports, Streamable HTTP): frames are
 * queued until a connection takes them, so nothing written before the response body starts, or while
 * a client reconnects, is lost. With an id, every event carries `<id>_<n>` and goes to `keep` as
 * it is written (the session's `EventStore`), so a client that reconnects with `Last-Event-ID` can
 * be given what it missed from there.
 */

export interface StreamSink {
  write(chunk: string): void;
  end(): void;
}

export interface EventStream {
  /** The stream's id (the prefix of its event ids); undefined for a stream that cannot be resumed. */
  readonly id: string | undefined;
  readonly ended: boolean;
  readonly attached: boolean;
  /** Queues or writes one message as an event; ignored once ended. */
  write(message: object): void;
  /** A comment line: keeps an idle connection open through proxies. */
  comment(text: string): void;
  /** Ends the stream: the connection closes once every frame is written. */
  end(): void;
  /**
   * Gives the stream a connection: the frames not yet written, numbered above `after` (a resumed
   * connection was given those up to `after` from the EventStore), are written to it at once, later
   * ones as they come. A connection already attached is ended first: one stream, one connection.
   */
  attach(sink: StreamSink, after?: number): void;
  /** The connection went away; frames queue again. */
  detach(sink: StreamSink): void;
}

interface Frame {
  readonly seq: number;
  readonly text: string;
}

export function createEventStream(
  id: string | undefined,
  onDetach?: () => void,
  keep?: (seq: number, frame: string) => void,
): EventStream {
  // Frames not yet written to a connection; what was written is the EventStore's to keep.
  const frames: Frame[] = [];
  let seq = 0;
  let written = 0;
  let sink: StreamSink | undefined;
  let ended = false;

  const push = (text: string): void => {
    const frame = { seq: ++seq, text };
    if (id !== undefined) keep?.(frame.seq, text);
    if (sink !== undefined) {
      sink.write(text);
      written = frame.seq;
      return;
    }
    frames.push(frame);
  };

  const stream: EventStream = {
    id,
    get ended() {
      return ended;
    },
    get attached() {
      return sink !== undefined;
    },
    write(message: object): void {
      if (ended) return;
      const eventId = id === undefined ? "" : `id: ${id}_${seq + 1}\n`;
      push(`${eventId}event: message\ndata: ${JSON.stringify(message)}\n\n`);
    },
    comment(text: string): void {
      if (ended || sink === undefined) return;
      sink.write(`: ${text}\n\n`);
    },
    end(): void {
      if (ended) return;
      ended = true;
      sink?.end();
    },
    attach(next: StreamSink, after: number = written): void {
      const previous = sink;
      sink = next;
      if (previous !== undefined && previous !== next) previous.end();
      for (const frame of frames) if (frame.seq > after) next.write(frame.text);
      written = seq;
      frames.length = 0;
      if (ended) next.end();
    },
    detach(gone: StreamSink): void {
      if (sink !== gone) return;
      sink = undefined;
      if (!ended) onDetach?.();
    },
  };
  return stream;
}

/** The stream id and event number of a `Last-Event-ID` this module wrote; undefined for any other value. */
export function parseEventId(value: string): { stream: string; seq: number } | undefined {
  const match = /^([A-Za-z0-9-]+)_(\d{1,15})$/.exec(value);
  return match === null ? undefined : { stream: match[1]!, seq: Number(match[2]) };
}
