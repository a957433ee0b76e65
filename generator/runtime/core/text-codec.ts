// TextDecoder and TextEncoder exist on every platform the output runs on (Node 18+, browsers, Deno, Bun,
// workers) but not in the ES2022 library it compiles against: declared here with the members used.

interface Decoder {
  decode(input?: Uint8Array, options?: { readonly stream?: boolean }): string;
}

interface Encoder {
  encode(input: string): Uint8Array;
}

const platform = globalThis as unknown as {
  readonly TextDecoder: new (label: string, options: { readonly ignoreBOM: boolean }) => Decoder;
  readonly TextEncoder: new () => Encoder;
};

/**
 * A UTF-8 decoder that replaces malformed bytes (U+FFFD) rather than throwing; `stream` keeps a split character.
 * It drops a leading byte order mark unless `keepBom`: a parser that strips the one its standard allows (SSE)
 * keeps it, so that a second one is not lost with it.
 */
export function utf8Decoder(keepBom = false): Decoder {
  return new platform.TextDecoder("utf-8", { ignoreBOM: keepBom });
}

export function utf8Encode(text: string): Uint8Array {
  return new platform.TextEncoder().encode(text);
}

/** The `size` bytes of `chunks` as one array (a body read in pieces); one chunk is returned as it is. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
