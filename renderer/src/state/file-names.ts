/** The endings the gateway loads a file by: a spec's `.openapi.yaml|yml|json`, a handler's `_handler.ts|py|…`. */
export const kindSuffix = /(\.openapi\.(ya?ml|json)|_handler\.(ts|mts|js|mjs|py))$/i;

/**
 * Where the part of a file name the user replaces ends: before the ending the gateway loads it by
 * (`new_api|_handler.ts`, `new-api|.openapi.yaml`), else before the first dot, so typing a name keeps
 * the file a spec or a handler.
 */
export function stemEnd(name: string): number {
  const match = kindSuffix.exec(name);
  if (match && match.index > 0) return match.index;
  const dot = name.indexOf('.');
  return dot > 0 ? dot : name.length;
}

/**
 * A name typed in full over the selected stem (`orders.openapi.yaml` + `.openapi.yaml`) ends with two
 * such endings; the typed one is kept.
 */
export function withSingleSuffix(name: string): string {
  const match = kindSuffix.exec(name);
  if (!match) return name;
  const typed = name.slice(0, match.index);
  return kindSuffix.test(typed) ? typed : name;
}
