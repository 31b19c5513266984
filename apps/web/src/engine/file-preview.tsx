import { findPage } from '@campus/entities/pages';
import { Anchor, Group, Image, Stack, Text } from '@mantine/core';
import { IconDownload, IconFile } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useParams } from 'react-router';
import { http } from '../lib/http-client';
import { getSession } from '../lib/session-store';
import { parseMode, type EntityMode } from './entity-mode';

/** Where the server serves a row's stored file (docs/api-contract.md, Files). */
export const fileUrl = (entity: string, id: string | number, field: string): string =>
  `/api/file/${encodeURIComponent(entity)}/${encodeURIComponent(String(id))}/${encodeURIComponent(field)}`;

/** The upload endpoint; its URL contains 'fileupload', so no success toast and no loader (spec sections 8, 9). */
export const uploadUrl = (entity: string, field: string): string =>
  `/api/fileupload/?entity=${encodeURIComponent(entity)}&field=${encodeURIComponent(field)}`;

/**
 * The entity and form mode of the page the form is on (sms/{module}/{page}/{mode}/{id}): FormField carries
 * no entity and the input no row id, and both are in the route the form itself was opened by.
 */
export function useRouteRow(): { entity: string | null; mode: EntityMode | null } {
  const params = useParams();
  const page = findPage(params.module ?? '', params.page ?? '');
  return { entity: page?.entity ?? null, mode: parseMode(params['*']) };
}

/** The stored file of the row the route names, for update and view (a clone's row is not the new one's). */
export function useRowFileUrl(field: string): string | null {
  const { entity, mode } = useRouteRow();
  if (!entity || !mode || (mode.kind !== 'update' && mode.kind !== 'view')) return null;
  return fileUrl(entity, mode.id, field);
}

/**
 * The file as a blob through the HTTP client (the contract headers; an <img src> cannot carry them), or
 * null when it cannot be had (gone, not allowed): a missing preview is no error and shows no toast.
 */
export async function fetchFileBlob(url: string, signal?: AbortSignal): Promise<Blob | null> {
  if (!getSession().user) return null;
  try {
    return await http.get<Blob>(url, { signal, silent: true, blob: true });
  } catch {
    return null;
  }
}

export interface ObjectFile {
  url: string;
  type: string;
}

/** An object URL of a local blob (a file just chosen), revoked when the blob changes or the view goes. */
export function useLocalObjectUrl(blob: Blob | null): ObjectFile | null {
  const [obj, setObj] = useState<ObjectFile | null>(null);
  useEffect(() => {
    if (!blob) {
      setObj(null);
      return undefined;
    }
    const url = URL.createObjectURL(blob);
    setObj({ url, type: blob.type });
    return () => URL.revokeObjectURL(url);
  }, [blob]);
  return obj;
}

/** The server's file at url as an object URL; the request is aborted and the URL revoked on unmount. */
export function useRemoteObjectUrl(url: string | null): ObjectFile | null {
  const [obj, setObj] = useState<ObjectFile | null>(null);
  useEffect(() => {
    setObj(null);
    if (!url) return undefined;
    const controller = new AbortController();
    let made: string | null = null;
    void fetchFileBlob(url, controller.signal).then((blob) => {
      if (!blob || controller.signal.aborted) return;
      made = URL.createObjectURL(blob);
      setObj({ url: made, type: blob.type });
    });
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return obj;
}

/** A thumbnail for an image, a download link for anything else (a PDF); the name always downloads it. */
export function FileThumb({ file, name, testId }: { file: ObjectFile | null; name: string; testId?: string }) {
  if (!file) {
    return (
      <Group gap={6} data-testid={testId}>
        <IconFile size={16} />
        <Text size="sm">{name}</Text>
      </Group>
    );
  }
  return (
    <Group gap="xs" align="center" data-testid={testId}>
      {file.type.startsWith('image/') && <Image src={file.url} alt={name} h={64} w="auto" fit="contain" radius="sm" />}
      <Anchor href={file.url} download={name} size="sm">
        <Group gap={4} wrap="nowrap">
          <IconDownload size={14} />
          {name}
        </Group>
      </Anchor>
    </Group>
  );
}

/** A saved row's file: fetched from the server with the contract headers. */
export function StoredFile({ url, name, testId }: { url: string | null; name: string; testId?: string }) {
  const file = useRemoteObjectUrl(url);
  return <FileThumb file={file} name={name} testId={testId} />;
}

/** A file just chosen in the browser, shown before it is saved. */
export function LocalFile({ file, testId }: { file: File; testId?: string }) {
  const obj = useLocalObjectUrl(file);
  return <FileThumb file={obj} name={file.name} testId={testId} />;
}

/** The view form's value of an image/file field: the saved file's thumbnail or download link. */
export function ViewFile({ name, label, value }: { name: string; label: string; value: unknown }) {
  const url = useRowFileUrl(name);
  const fileName = typeof value === 'string' ? value : '';
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <div id={name}>{fileName === '' ? <Text size="sm">—</Text> : <StoredFile url={url} name={fileName} testId={`${name}-view`} />}</div>
    </Stack>
  );
}
