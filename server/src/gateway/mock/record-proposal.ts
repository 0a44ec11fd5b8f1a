import { httpError } from '../../core/errors.js';
import { isObject } from '../../core/json.js';
import { isJsonMediaType } from '../content-negotiation.js';
import { parse } from 'yaml';
import { createAjv, documentId } from '../request-validator.js';
import { pointerOf } from '../model/json-pointer.js';
import { validationDocument } from '../model/validation-document.js';
import { bodyViolations, type ContractViolation } from './contract.js';
import type { RecordedExchange } from './recordings.js';
import { editSpecText, resolvedPath, type SpecTree } from './spec-edits.js';

/** Example names the workbench accepts: what a URL fragment and a `Prefer: example=` value carry as is. */
export const exampleNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The example value of a recorded body: parsed JSON for a JSON media type, else the text. */
function exampleValue(exchange: RecordedExchange): unknown {
  const text = exchange.body.toString('utf8');
  if (!isJsonMediaType(exchange.mediaType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The media type object of the exchange's response in the spec as it is now, following local `$ref`s. */
function mediaPath(tree: SpecTree, exchange: RecordedExchange, file: string): string[] {
  const where = `${exchange.method} ${exchange.path} response ${exchange.response} ${exchange.mediaType}`;
  const path = resolvedPath(tree, [
    'paths',
    exchange.path,
    exchange.method.toLowerCase(),
    'responses',
    exchange.response,
    'content',
    exchange.mediaType,
  ]);
  if (!path || !isObject(tree.get(path)))
    throw httpError('SPEC_EDIT_CONFLICT', [file, `it no longer declares ${where} in this file`]);
  return path;
}

/** The first free `recorded-<n>` among `taken`. */
function freeName(taken: Record<string, unknown>): string {
  let n = 1;
  while (Object.hasOwn(taken, `recorded-${n}`)) n++;
  return `recorded-${n}`;
}

/**
 * The spec text with a recorded upstream answer added as a named example of its response
 * (`paths.<p>.<method>.responses.<status>.content.<media>.examples.<name>`), its comments and layout
 * kept; nothing is written. A media type's single `example` becomes the first entry of `examples`
 * (`example`), so that it still answers by default. 409 `SPEC_EDIT_CONFLICT` when the spec no longer
 * declares that response or already has an example of that name.
 */
export function proposeRecordedExample(
  text: string,
  file: string,
  exchange: RecordedExchange,
  name?: string,
): { text: string; name: string; violations: ContractViolation[] } {
  let media: string[] = [];
  const edited = editSpecText(text, file, (tree) => {
    media = mediaPath(tree, exchange, file);
    const single = tree.get([...media, 'example']);
    if (single !== undefined) {
      tree.delete([...media, 'example']);
      tree.set([...media, 'examples'], { example: { value: single }, ...(tree.get([...media, 'examples']) ?? {}) });
    }
    const examples = tree.get([...media, 'examples']);
    const taken = isObject(examples) ? examples : {};
    if (name !== undefined && Object.hasOwn(taken, name))
      throw httpError('SPEC_EDIT_CONFLICT', [file, `the response already has an example named "${name}"`]);
    const chosen = name ?? freeName(taken);
    tree.set([...media, 'examples', chosen], {
      summary: `Recorded from ${exchange.method} ${exchange.url} at ${new Date(exchange.time).toISOString()}`,
      value: exampleValue(exchange),
    });
    return chosen;
  });
  return { text: edited.text, name: edited.result, violations: exampleViolations(edited.text, media, exchange) };
}

/**
 * How the recorded example breaks the schema of its media type in the edited spec (Ajv, with the spec's dialect);
 * none when the media type is not JSON, has no schema, or its schema cannot be compiled here (an external `$ref`).
 */
function exampleViolations(text: string, media: string[], exchange: RecordedExchange): ContractViolation[] {
  if (!isJsonMediaType(exchange.mediaType)) return [];
  const document = parse(text) as Record<string, unknown>;
  let node: unknown = document;
  for (const token of media) node = isObject(node) ? node[token] : undefined;
  if (!isObject(node) || node.schema === undefined) return [];
  const openapi = typeof document.openapi === 'string' ? document.openapi : '3.0.3';
  try {
    const ajv = createAjv(openapi, false);
    ajv.addSchema(validationDocument(document), documentId);
    const validate = ajv.compile({ $ref: documentId + pointerOf([...media, 'schema']) });
    return validate(exampleValue(exchange)) ? [] : bodyViolations(validate.errors ?? []);
  } catch {
    return [];
  }
}
