/**
 * A compile-time proof that a hand-written type and the output type of its zod
 * schema describe the same data. The interfaces stay the readable, documented public
 * types; the schemas validate what is loaded; `Agree` keeps them from drifting apart.
 *
 * Stricter than assignability both ways, which an optional field present on one
 * side only would pass: the two sides must have the same named fields, each optional
 * on both or neither, with types that agree in turn (through arrays and unions), and
 * an index signature (unknown fields kept) on both or neither.
 */

declare const extraFields: unique symbol;

/** Named keys only: index signatures dropped. */
type NamedKey<Key> = string extends Key ? never : number extends Key ? never : symbol extends Key ? never : Key;

/** `Value` with every object reduced to its named fields, plus a mark when it accepts unknown fields. */
type Shape<Value> = Value extends readonly (infer Item)[]
  ? Shape<Item>[]
  : Value extends object
    ? { [Key in keyof Value as NamedKey<Key>]: Shape<Value[Key]> } & (string extends keyof Value ? { [extraFields]: true } : unknown)
    : Value;

/** True when `Left` and `Right` are the same type (not merely assignable). */
type Same<Left, Right> = (<T>() => T extends Left ? 1 : 2) extends <T>() => T extends Right ? 1 : 2 ? true : false;

/** `true` when `Type` and `Schema` (a schema's output type) describe the same data, else `false`. */
export type Agree<Type, Schema> = Same<Shape<Type>, Shape<Schema>>;

/** Compiles only for `true`: `const proof: Proven<Agree<A, B>> = true`. */
export type Proven<Check extends true> = Check;
