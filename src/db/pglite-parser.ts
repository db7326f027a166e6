// The embedded database's answers decoded by pg-protocol's parser (the one
// the `pg` driver uses against PostgreSQL) instead of PGlite's own. PGlite
// copies every field of every row into an ArrayBuffer of its own before
// decoding it; pg-protocol decodes a field from the answer's bytes where they
// are. On a 500-cell page of GET /api/v2/translations, PGlite's parser was 43%
// of the request's CPU time (docs/benchmarks.md, "The embedded database's
// answers").
//
// PGlite parses what the engine writes, whatever asked for it, with an
// instance of its exported Parser class; its parse() is replaced on the class.
// The messages are pg-protocol's, which PGlite's protocol module was copied
// from: the same names and fields. Those PGlite tells apart by class (an
// error, a notice, a notification) are made with PGlite's classes, the
// messages without content are PGlite's constants, and a column's format is
// PGlite's number. test/unit/pglite-parser.test.ts compares
// the messages with PGlite's own parser's, message type by message type, so
// an upgrade of either package that parts them fails there.
import { Parser } from 'pg-protocol/dist/parser.js';
import type { BackendMessage } from 'pg-protocol/dist/messages.js';
import type * as PGliteModule from '@electric-sql/pglite';

type Protocol = (typeof PGliteModule)['protocol'];
type Callback = (message: unknown) => void;

type Parse = (buffer: ArrayBuffer | ArrayBufferView, callback: Callback) => void;

/** pg-protocol's parser of each PGlite parser (the state of a message split across two writes of the engine). */
const parsers = new WeakMap<object, Parser>();
/** PGlite's own parse() of each replaced prototype. */
const own = new WeakMap<object, Parse>();

/** Whether PGlite's parser is replaced. */
export function isPGliteParserReplaced(protocol: Protocol): boolean {
  return own.has(protocol.Parser.prototype);
}

/** PGlite's own parse(), replaced or not (its test compares the two). */
export function pgliteOwnParse(protocol: Protocol): Parse {
  const prototype = protocol.Parser.prototype as { parse: Parse };
  return own.get(prototype) ?? prototype.parse;
}

/** Replaces PGlite's parser of the engine's answers (once per loaded copy of PGlite). */
export function replacePGliteParser(protocol: Protocol): void {
  const prototype = protocol.Parser.prototype as { parse: Parse };
  if (own.has(prototype)) return;
  own.set(prototype, prototype.parse);
  const convert = converter(protocol);
  prototype.parse = function (buffer, callback) {
    let parser = parsers.get(this);
    if (!parser) parsers.set(this, (parser = new Parser()));
    // A copy: the engine's bytes are a view of its memory, written over by its next answer, and pg-protocol keeps
    // the start of a message that continues in the next write by reference.
    const bytes = ArrayBuffer.isView(buffer)
      ? Buffer.from(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength))
      : Buffer.from(new Uint8Array(buffer));
    parser.parse(bytes, (message) => callback(convert(message)));
  };
}

/** A pg-protocol message as PGlite's parser makes it. */
function converter(protocol: Protocol): (message: BackendMessage) => unknown {
  const { DatabaseError, NoticeMessage, NotificationResponseMessage } = protocol.messages;
  // The messages without content are constants of each parser (whose lengths differ: PGlite counts the code).
  const constants = new Map<string, unknown>(
    (
      [
        'parseComplete',
        'bindComplete',
        'closeComplete',
        'noData',
        'portalSuspended',
        'replicationStart',
        'emptyQuery',
        'copyDone',
      ] as const
    ).map((name) => [name, protocol.messages[name]]),
  );
  const FORMAT = { text: 0, binary: 1 } as const;
  const fieldsOf = (from: Record<string, unknown>, to: Record<string, unknown>) => {
    for (const name of NOTICE_FIELDS) to[name] = from[name];
  };
  return (message) => {
    switch (message.name) {
      case 'rowDescription':
        for (const field of (message as unknown as { fields: { format: unknown }[] }).fields)
          field.format = FORMAT[field.format as keyof typeof FORMAT];
        return message;
      case 'error': {
        const from = message as unknown as Record<string, unknown> & { message: string; length: number };
        const error = new DatabaseError(from.message, from.length, 'error') as unknown as Record<string, unknown>;
        fieldsOf(from, error);
        return error;
      }
      case 'notice': {
        const from = message as unknown as Record<string, unknown> & { message: string; length: number };
        const notice = new NoticeMessage(from.length, from.message) as unknown as Record<string, unknown>;
        fieldsOf(from, notice);
        return notice;
      }
      case 'copyData': {
        // pg-protocol's chunk is a view of its buffer, which it reuses for the next message split across writes.
        const data = message as unknown as { chunk: Uint8Array };
        data.chunk = new Uint8Array(data.chunk);
        return message;
      }
      case 'notification': {
        const from = message as unknown as { length: number; processId: number; channel: string; payload: string };
        return new NotificationResponseMessage(from.length, from.processId, from.channel, from.payload);
      }
      default:
        return constants.get(message.name) ?? message;
    }
  };
}

/** The fields of an error or notice response (both parsers name them alike). */
const NOTICE_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;
