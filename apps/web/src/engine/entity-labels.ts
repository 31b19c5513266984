import type { AnyEntity, SelectField, ToggleButton } from '@campus/entities/define';
import type { PageDef } from '@campus/entities/pages';

/** What the engine passes to t: always a default (the English text) and any interpolation values. */
export interface TranslateOptions {
  defaultValue: string;
  [value: string]: string | number;
}

/**
 * The one call of i18next's t the engine makes. react-i18next's `t` (useTranslation) and `i18next.t` both
 * fit, and tests can pass a plain function without an i18next instance.
 */
export type Translate = (key: string, options: TranslateOptions) => string;

/*
 * Keys are derived from the declaration, so a new entity needs no code here: until its keys are added to
 * the language files every label falls back to the declared English label. Field keys are per entity
 * because field names repeat across entities with different meanings (usr_cd is "Code" on employee and
 * "Employee" on the mappings).
 */

/** `entity.<name>.label`, e.g. entity.religion.label. */
export const entityLabelKey = (entity: Pick<AnyEntity, 'name'>): string => `entity.${entity.name}.label`;

/** `field.<entity name>.<field name>`, e.g. field.religion.rgn_nm. */
export const fieldLabelKey = (entity: Pick<AnyEntity, 'name'>, fieldName: string): string => `field.${entity.name}.${fieldName}`;

/** `option.<entity name>.<field name>.<stored value>`, e.g. option.institute.inst_typ.school. */
export const optionLabelKey = (entity: Pick<AnyEntity, 'name'>, fieldName: string, value: string): string =>
  `option.${entity.name}.${fieldName}.${value}`;

/*
 * i18next reads '.' in a key as nesting and ':' as a namespace, so an option holding either would look up
 * some other key; such an option shows its declared label instead of risking a wrong one.
 */
const KEY_SAFE = /^[^.:]+$/;

/** Whether a stored value may be part of a key (see KEY_SAFE). */
export const isKeySafe = (value: string): boolean => KEY_SAFE.test(value);

/** An option's declared English label (optionLabels), else the option as stored. */
export function declaredOptionLabel(field: Pick<SelectField, 'optionLabels'>, value: string): string {
  const labels = field.optionLabels;
  // hasOwn: an option named like an Object.prototype member ('constructor') must not find that member.
  return (labels && Object.hasOwn(labels, value) ? labels[value] : undefined) ?? value;
}

/**
 * A select option's label in the current language, else its declared label, else the stored value. A
 * value that is not (or no longer) a declared option still goes through its key: old rows may hold it.
 */
export function optionLabel(t: Translate, entity: AnyEntity, fieldName: string, value: string): string {
  const field = Object.hasOwn(entity.fields, fieldName) ? entity.fields[fieldName] : undefined;
  const declared = field?.kind === 'select' ? declaredOptionLabel(field, value) : value;
  return KEY_SAFE.test(value) ? t(optionLabelKey(entity, fieldName, value), { defaultValue: declared }) : declared;
}

/** `page.<module>.<page>`: the keys the side menu already uses for the same pages. */
export const pageLabelKey = (page: Pick<PageDef, 'module' | 'page'>): string => `page.${page.module}.${page.page}`;

/** `btn.<button>`: a toggle is a permission button, worded like the other buttons (btn.active, btn.allow_login). */
export const toggleLabelKey = (toggle: Pick<ToggleButton, 'button'>): string => `btn.${toggle.button}`;

/** The entity's name in the current language ("table name" of the spec's messages), else its declared label. */
export function entityLabel(t: Translate, entity: AnyEntity): string {
  return t(entityLabelKey(entity), { defaultValue: entity.label });
}

/**
 * A field's label in the current language, else the declared label. A name that is not a declared field
 * (a joined display column, a typo) shows as itself rather than as nothing.
 */
export function fieldLabel(t: Translate, entity: AnyEntity, fieldName: string): string {
  const declared = Object.hasOwn(entity.fields, fieldName) ? entity.fields[fieldName].label : fieldName;
  return t(fieldLabelKey(entity, fieldName), { defaultValue: declared });
}

/** A page's title (list heading, import heading), else the declared page label. */
export function pageLabel(t: Translate, page: Pick<PageDef, 'module' | 'page' | 'label'>): string {
  return t(pageLabelKey(page), { defaultValue: page.label });
}

/** The View button of a page's grid: `view_label.<module>.<page>` when the page relabels it, else btn.view. */
export function viewButtonLabel(t: Translate, page: Pick<PageDef, 'module' | 'page' | 'viewLabel'>): string {
  if (!page.viewLabel) return t('btn.view', { defaultValue: 'View' });
  return t(`view_label.${page.module}.${page.page}`, { defaultValue: page.viewLabel });
}

/** A toggle button's label, else the declared one. */
export function toggleLabel(t: Translate, toggle: ToggleButton): string {
  return t(toggleLabelKey(toggle), { defaultValue: toggle.label });
}
