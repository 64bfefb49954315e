// Characters no input may carry into storage: U+0000 (PostgreSQL cannot hold it) and an unpaired
// UTF-16 surrogate (UTF-8 cannot encode it); JSON can spell both.

// In a /u regex a well-formed pair is one code point, so \p{Cs} matches only an unpaired half.
// eslint-disable-next-line no-control-regex -- U+0000 is one of the characters this looks for.
const NUL_OR_LONE_SURROGATE = /[\u0000\p{Cs}]/u;
const LONE_SURROGATE = /\p{Cs}/u;

export interface UnstorableOptions {
  /** Leave NUL to the caller (a route that answers it with its own text); surrogates are still found. */
  allowNul?: boolean;
}

/** Whether `text` holds a NUL (unless allowed) or an unpaired surrogate. */
export const isUnstorable = (text: string, { allowNul = false }: UnstorableOptions = {}): boolean =>
  (allowNul ? LONE_SURROGATE : NUL_OR_LONE_SURROGATE).test(text);

/** The dotted path of the first unstorable string or key ('' for `root`); no recursion, so deep bodies cannot overflow. */
export function unstorablePath(root: unknown, options: UnstorableOptions = {}): string | null {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (isUnstorable(value, options)) return at;
      continue;
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) continue;
    const entries: [string, unknown][] = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      if (isUnstorable(key, options)) return at;
      stack.push([item, at ? `${at}.${key}` : key]);
    }
  }
  return null;
}
