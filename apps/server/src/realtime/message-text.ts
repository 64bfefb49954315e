// Socket messages as text: ws hands a Buffer (its default binaryType), an ArrayBuffer or a list of fragments.
import type { RawData } from 'ws';

export function messageText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString();
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString();
}
