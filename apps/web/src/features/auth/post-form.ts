// POST of a form that may carry a file: multipart goes around the JSON helper, which sets its own
// content type.
import { authedSend, errorFrom } from '../../api/index.ts';
import { freshToken } from './session-store.ts';

export interface FormFile {
  /** The form field of the file. */
  field: string;
  blob: Blob;
  /** The file name sent with it (a File's own name when omitted). */
  filename?: string;
}

/** The server's answer to `fields` (and `file`, if any); a refusal throws the server's message. */
export async function postForm(path: string, fields: Record<string, string>, file: FormFile | null): Promise<Response> {
  let response: Response;
  if (file) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    if (file.filename === undefined) form.append(file.field, file.blob);
    else form.append(file.field, file.blob, file.filename);
    const token = await freshToken();
    response = await fetch(path, { method: 'POST', body: form, headers: token ? { authorization: `Bearer ${token}` } : {} });
  } else {
    response = await authedSend(path, { method: 'POST', body: fields });
  }
  if (!response.ok) throw await errorFrom(response);
  return response;
}
