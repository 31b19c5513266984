import { image, file as fileField } from '@campus/entities/define';
import { findEntity } from '@campus/entities/registry';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState, type JSX } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { showsLoader, successToastMessage } from '../lib/http-rules';
import { setInstitute, signIn } from '../lib/session-store';
import { adminUser } from '../test-support/fixtures';
import { jsonResponse, renderWithProviders, resetTestState, stubBrowser, stubFetch } from '../test-support/render-app';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { FieldInput } from './field-input';
import { fetchFileBlob, StoredFile, uploadUrl } from './file-preview';
import type { FormValue } from './form-values';
import { uploadRuleError } from './upload-rule';

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** jsdom's Blob cannot go through Node's Response, so a file answer is faked with what the code reads. */
const fileResponse = (bytes: BlobPart, type: string): Response => ({ ok: true, status: 200, blob: async () => new Blob([bytes], { type }) }) as unknown as Response;

let shown: string[] = [];
let created: string[] = [];
let revoked: string[] = [];

beforeEach(() => {
  shown = stubBrowser().shown;
  created = [];
  revoked = [];
  // jsdom has no object URLs.
  let n = 0;
  URL.createObjectURL = vi.fn(() => {
    const u = `blob:test/${n++}`;
    created.push(u);
    return u;
  });
  URL.revokeObjectURL = vi.fn((u: string) => void revoked.push(u));
  signIn(adminUser);
  setInstitute({ inst_cd: 1, inst_nm: 'School', inst_typ: 'school' });
  document.cookie = 'XSRF-TOKEN=x1; path=/';
});
afterEach(resetTestState);

describe('client upload rule', () => {
  it('takes images only for an image field, with the spec message, and pdf where allowed', () => {
    const photo = image({ label: 'Photo' });
    expect(uploadRuleError(photo, 'face.PNG')).toBeNull();
    expect(uploadRuleError(photo, 'setup.exe')).toBe('Please upload only image file');
    expect(uploadRuleError(photo, 'scan.pdf')).toBe('Please upload only image file');
    expect(uploadRuleError(image({ label: 'Scan', allowPdf: true }), 'scan.pdf')).toBeNull();
    const atch = fileField({ label: 'Attachment' });
    expect(uploadRuleError(atch, 'notice.pdf')).toBeNull();
    expect(uploadRuleError(atch, 'notice.docx')).toBe('Please upload only an image or PDF file.');
  });

  it('uploads without the global loader or a success toast (spec sections 8 and 9)', () => {
    const url = uploadUrl('employee', 'usr_photo');
    expect(showsLoader(url)).toBe(false);
    expect(successToastMessage('POST', url)).toBeNull();
  });
});

describe('stored file preview', () => {
  it('fetches the file with the contract headers as a blob', async () => {
    const fetchMock = stubFetch(async () => fileResponse(PNG_BYTES, 'image/png'));
    const blob = await fetchFileBlob('/api/file/employee/5/usr_photo');
    expect(blob?.type).toBe('image/png');
    const headers = fetchMock.mock.calls[0][1].headers as Record<string, string>;
    expect(headers.auth_token).toBe(adminUser.usr_token);
    expect(headers.usercode).toBe(String(adminUser.usr_cd));
    expect(headers.inst_cd).toBe('1');
    stubFetch(async () => jsonResponse({ message: 'nope' }, 404));
    expect(await fetchFileBlob('/api/file/employee/5/usr_photo')).toBeNull();
  });

  it('shows an image as a thumbnail from an object URL and revokes it on unmount', async () => {
    stubFetch(async () => fileResponse(PNG_BYTES, 'image/png'));
    const view = renderWithProviders(<StoredFile url="/api/file/employee/5/usr_photo" name="face.png" />);
    const img = await screen.findByRole('img', { name: 'face.png' });
    expect(img.getAttribute('src')).toBe('blob:test/0');
    view.unmount();
    expect(revoked).toEqual(['blob:test/0']);
  });

  it('shows a PDF as a download link, not an image', async () => {
    stubFetch(async () => fileResponse('%PDF-1.4', 'application/pdf'));
    renderWithProviders(<StoredFile url="/api/file/circular/2/crlr_atch" name="notice.pdf" />);
    const link = await screen.findByRole('link', { name: /notice\.pdf/ });
    expect(link.getAttribute('download')).toBe('notice.pdf');
    expect(screen.queryByRole('img')).toBeNull();
  });
});

describe('upload input', () => {
  const employee = findEntity('employee')!;
  const photo = employee.fields.usr_photo;

  function Harness({ initial, onValue }: { initial: FormValue; onValue: (v: FormValue) => void }) {
    const [value, setValue] = useState<FormValue>(initial);
    return (
      <FieldInput
        name="usr_photo"
        field={photo}
        value={value}
        onChange={(v) => {
          setValue(v);
          onValue(v);
        }}
      />
    );
  }

  /** Mounted where the app mounts entity pages, so the input reads its entity and row from the route. */
  const atPath = (path: string, ui: JSX.Element) => {
    const router = createMemoryRouter([{ path: '/sms/:module/:page/*', element: ui }], { initialEntries: [path] });
    return renderWithProviders(<RouterProvider router={router} />);
  };

  const choose = (name: string, type: string) => {
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([PNG_BYTES], name, { type })] } });
  };

  it('refuses a non-image by name before anything is sent', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ file_id: 'x' }));
    const onValue = vi.fn();
    atPath('/sms/employee/profile/create', <Harness initial="" onValue={onValue} />);
    choose('virus.exe', 'application/octet-stream');
    await waitFor(() => expect(shown).toContain('Please upload only image file'));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(onValue).not.toHaveBeenCalled();
  });

  it('uploads on choose to the entity field, takes the file_id and previews the chosen file', async () => {
    const fetchMock = stubFetch(async () => jsonResponse({ file_id: 'FILE123' }));
    const onValue = vi.fn();
    atPath('/sms/employee/profile/create', <Harness initial="" onValue={onValue} />);
    choose('face.png', 'image/png');
    await waitFor(() => expect(onValue).toHaveBeenCalledWith('FILE123'));
    expect(fetchMock.mock.calls[0][0]).toBe('/api/fileupload/?entity=employee&field=usr_photo');
    expect(fetchMock.mock.calls[0][1].method).toBe('POST');
    expect(await screen.findByRole('img', { name: 'face.png' })).toBeTruthy();
    // No success toast for fileupload (spec section 8).
    expect(shown).toEqual([]);
    fireEvent.click(screen.getByTestId('usr_photo-remove'));
    expect(onValue).toHaveBeenLastCalledWith('');
  });

  it('on update shows the saved file fetched from the row, and clears it on remove', async () => {
    const fetchMock = stubFetch(async () => fileResponse(PNG_BYTES, 'image/png'));
    const onValue = vi.fn();
    atPath('/sms/employee/profile/update/7', <Harness initial="me.png" onValue={onValue} />);
    expect(await screen.findByRole('img', { name: 'me.png' })).toBeTruthy();
    expect(fetchMock.mock.calls[0][0]).toBe('/api/file/employee/7/usr_photo');
    fireEvent.click(screen.getByTestId('usr_photo-remove'));
    expect(onValue).toHaveBeenLastCalledWith('');
  });

  it("drops a clone's copied file name, which is no upload of the new row", async () => {
    stubFetch(async () => jsonResponse({}));
    const onValue = vi.fn();
    atPath('/sms/employee/profile/clone/7', <Harness initial="me.png" onValue={onValue} />);
    await waitFor(() => expect(onValue).toHaveBeenCalledWith(''));
  });
});
