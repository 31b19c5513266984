import type { Field } from '@campus/entities/define';
import { imageUploadError } from '../lib/validation';

export const FILE_UPLOAD_MESSAGE = 'Please upload only an image or PDF file.';

/**
 * The client's check before an upload (spec section 5: images only, else 'Please upload only image file';
 * the variant with allowPdf adds pdf). A file() field takes what an image field with allowPdf takes. The
 * server checks the content again; this only spares a round trip for a wrongly named file.
 */
export function uploadRuleError(field: Extract<Field, { kind: 'image' | 'file' }>, fileName: string): string | null {
  const allowPdf = field.kind === 'file' || field.allowPdf === true;
  const problem = imageUploadError(fileName, { allowPdf });
  if (!problem) return null;
  return field.kind === 'image' ? problem : FILE_UPLOAD_MESSAGE;
}
