/**
 * The saved form of a {@link ReasoningSidecar} (version 1): the current episode's
 * reasoning kept beside the transcript. Validated on load; the reasoning parts are
 * checked like transcript parts, so their opaque data and unknown fields survive.
 */
import type { z } from 'zod/v4';
import { transcriptSchemas } from '../message/transcript-schema.js';
import type { PersistedFormat } from '../support/persisted-format.js';
import type { Agree, Proven } from '../support/schema-agreement.js';
import { lazily, type ZodModule } from '../support/zod-loader.js';
import type * as Types from './reasoning-sidecar.js';

function build(z: ZodModule['z']) {
  const index = z.number().int().nonnegative();
  const { ReasoningPart } = transcriptSchemas();
  return z.object({
    version: z.literal(1),
    episodeStart: index,
    entries: z.array(
      z.object({
        index,
        fingerprint: z.string().min(1),
        parts: z.array(z.object({ position: index, part: ReasoningPart })),
      }),
    ),
  });
}

/** How stores load a saved reasoning sidecar. */
export const reasoningSidecarFormat: PersistedFormat<ReturnType<typeof build>> = {
  code: 'invalid_reasoning_sidecar',
  name: 'reasoning sidecar',
  version: 1,
  schema: lazily(build),
  remedy: 'delete it (the current episode then resumes without its reasoning)',
};

// The interface of reasoning-sidecar.ts and this schema describe the same data (checked when compiling).
type _ReasoningSidecarAgrees = Proven<Agree<Types.ReasoningSidecar, z.output<ReturnType<typeof build>>>>;
