/**
 * The fields a loose schema names, without the index signature `z.looseObject` adds for unknown
 * ones (nested objects and arrays included): the shape a writer supplies. An interface such as the
 * providers' `ToolCall` or the compressor's `CompressionEvent` has no index signature, so it cannot
 * be assigned to a loose schema's own type; it can be assigned to this one, and so can a parsed value.
 */
export type KnownFields<T> = T extends readonly (infer Item)[]
  ? readonly KnownFields<Item>[]
  : T extends object
    ? { readonly [Key in keyof T as string extends Key ? never : Key]: KnownFields<T[Key]> }
    : T;
