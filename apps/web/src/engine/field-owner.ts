import type { AnyEntity, Field } from '@campus/entities/define';
import { entities } from '@campus/entities/registry';

/** The entity and field name a declared field belongs to: what its translation keys are made of. */
export interface FieldOwner {
  entity: AnyEntity;
  fieldName: string;
}

let owners: WeakMap<Field, FieldOwner> | null = null;

/**
 * Finds who declares a field object. The form's inputs and view values get the field but not its entity
 * (FormField carries name and field only), yet option keys are per entity like field labels. Declarations
 * are the registry's own objects, so identity is exact; a field built elsewhere (a test's ad hoc entity)
 * has no owner and shows its declared labels.
 */
export function fieldOwner(field: Field): FieldOwner | undefined {
  if (!owners) {
    owners = new WeakMap();
    for (const entity of entities) {
      for (const [fieldName, f] of Object.entries(entity.fields)) if (!owners.has(f)) owners.set(f, { entity, fieldName });
    }
  }
  return owners.get(field);
}
