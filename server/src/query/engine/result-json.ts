import { Readable } from 'node:stream';
import type { SqlResult } from '../../contract/index.js';
import { nextTurn } from '../../core/next-turn.js';
import { sliceBytes } from './result-slice.js';

/**
 * The pieces of `result`'s JSON text, exactly as `JSON.stringify(result)` writes it: the fields around
 * `rows` as they are, the rows one by one in pieces of about {@link sliceBytes}.
 */
function* resultPieces(result: SqlResult): Generator<string, void> {
  // `rows` written as 0 marks where the rows go: `"rows":0` with unescaped quotes appears nowhere else, as the
  // only other objects are the columns' {name, type} and quotes inside strings are escaped.
  const outline = JSON.stringify(result, (key, value: unknown) => (key === 'rows' ? 0 : value));
  const at = outline.indexOf('"rows":0') + '"rows":'.length;
  let piece = `${outline.slice(0, at)}[`;
  for (let i = 0; i < result.rows.length; i++) {
    piece += (i === 0 ? '' : ',') + JSON.stringify(result.rows[i]);
    if (piece.length >= sliceBytes) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]${outline.slice(at + 1)}`;
}

/**
 * A SQL result's JSON text for an answer, exactly as JSON.stringify writes it: a string when it is at most
 * about {@link sliceBytes}, else a stream of pieces of that size with a turn of the event loop between them.
 * JSON.stringify of a 32 MiB result holds the event loop for 100 ms or more and keeps the text whole twice
 * (string and buffer); in pieces, the requests that arrive meanwhile are served between them.
 */
export function resultJson(result: SqlResult): string | Readable {
  const pieces = resultPieces(result);
  const first = pieces.next();
  let next = pieces.next();
  if (next.done) return first.value as string;
  async function* rest(): AsyncGenerator<string> {
    yield first.value as string;
    while (!next.done) {
      await nextTurn();
      yield next.value;
      next = pieces.next();
    }
  }
  return Readable.from(rest(), { objectMode: false });
}
