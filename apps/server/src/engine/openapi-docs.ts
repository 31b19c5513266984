import { bodySchema, writableFields, type AnyEntity } from '@campus/entities/define';
import { z } from 'zod';
import { MAX_PAGE_SIZE } from './list-query';

/** JSON Schema for the documentation only: the handlers validate with the declaration's own zod schemas. */
export interface RouteDocs {
  body?: Record<string, unknown>;
  querystring?: Record<string, unknown>;
}

const jsonSchema = (schema: z.ZodType): Record<string, unknown> => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  return rest;
};

/** Create / update bodies from the declaration, with its labels and (for create) its required fields. */
export function bodyDocs(e: AnyEntity, mode: 'create' | 'update'): Record<string, unknown> {
  const doc = jsonSchema(bodySchema(e, mode));
  const props = (doc.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, f] of writableFields(e)) if (props[name]) props[name].description = f.label;
  if (mode === 'create') doc.required = writableFields(e).filter(([, f]) => f.required).map(([name]) => name);
  if (mode === 'update') {
    props.row_ver = { type: 'integer', minimum: 1, description: 'Version of the row as read; a stale one is refused with 409.' };
    doc.required = ['row_ver'];
  }
  return doc;
}

/** The list's query string: search, sort and paging, and one f_{field} filter per declared field. */
export function listQueryDocs(e: AnyEntity): Record<string, unknown> {
  const sortable = Object.entries(e.fields)
    .filter(([, f]) => f.kind !== 'password' && f.kind !== 'json')
    .flatMap(([name, f]) => (f.kind === 'link' ? [name, f.as] : [name]));
  const properties: Record<string, Record<string, unknown>> = {
    q: { type: 'string', maxLength: 100, description: 'Quick search over the searchable columns (partial, case-insensitive).' },
    sort: { type: 'string', enum: sortable },
    dir: { type: 'string', enum: ['asc', 'desc'] },
    page: { type: 'integer', minimum: 1, default: 1 },
    size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: 50 },
  };
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.kind === 'password' || f.kind === 'json') continue;
    properties[`f_${name}`] = { type: 'string', description: `Only rows whose ${f.label} equals this value.` };
  }
  return { type: 'object', properties };
}

/**
 * Swagger UI's request interceptor, run in the browser: the description and 'Try it out' calls carry the
 * signed-in web user's token and names (the web app keeps them in localStorage under 'campus.user', same
 * origin, as base64 JSON before a checksum: see session-store.ts) and the anti-forgery cookie, as the web client sends them. Built from source text so that the
 * served code is exactly this, whatever the server's build does to functions (@fastify/swagger-ui writes a
 * function into the page with its toString()).
 */
export const docsRequestInterceptor = new Function(
  'req',
  `try {
    var stored = window.localStorage.getItem('campus.user') || '';
    var b64 = stored.slice(0, stored.lastIndexOf('.'));
    var u = b64 ? JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); }))) : null;
    if (u && u.usr_token) {
      req.headers.auth_token = u.usr_token;
      req.headers.username = u.usr_nm;
      req.headers.usercode = String(u.usr_cd);
      req.headers.platform = 'web';
    }
    var x = document.cookie.match(/(?:^|; )XSRF-TOKEN=([^;]*)/);
    if (x) req.headers['x-xsrf-token'] = decodeURIComponent(x[1]);
  } catch (e) {}
  return req;`,
) as <R>(req: R) => R;
