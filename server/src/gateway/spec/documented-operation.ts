import { resolvePointer } from '../model/json-pointer.js';
import type { CompiledSpec, OperationSpec } from '../model/spec-types.js';

/** The operation object for the merged document, with the path item's shared parameters folded in. */
export function documentedOperation(spec: CompiledSpec, operation: OperationSpec): Record<string, unknown> {
  const object = (resolvePointer(spec.document, operation.pointer) ?? {}) as Record<string, unknown>;
  const itemPointer = operation.pointer.slice(0, operation.pointer.lastIndexOf('/'));
  const item = (resolvePointer(spec.document, itemPointer) ?? {}) as Record<string, unknown>;
  const shared = Array.isArray(item.parameters) ? item.parameters : [];
  if (shared.length === 0) return object;
  return { ...object, parameters: [...shared, ...(Array.isArray(object.parameters) ? object.parameters : [])] };
}
