/**
 * The saved form of {@link PackState} (version 1): the packer's state between calls,
 * which a session store keeps beside the transcript. Validated on load; unknown
 * fields are dropped (the state is the packer's own, and rebuilt when missing).
 */
import type { z } from 'zod/v4';
import type { PersistedFormat } from '../support/persisted-format.js';
import { lazily, type ZodModule } from '../support/zod-loader.js';
import type { Agree, Proven } from '../support/schema-agreement.js';
import type * as Types from './pack-types.js';

function build(z: ZodModule['z']) {
  const count = z.number().int().nonnegative();
  return z.object({
    version: z.literal(1),
    evictedEpisodes: count,
    head: z.object({ start: count, end: count }).optional(),
    summarized: z.object({ from: count, to: count }).optional(),
    summary: z.object({ episodes: count, text: z.string() }).optional(),
    current: z
      .object({
        start: count,
        reasoningDroppedBefore: count,
        resultsShrunkBefore: count,
        stepsDroppedBefore: count,
        stepsHeadEnd: count.optional(),
        resultsShrunkAt: z.array(count).optional(),
        resultsFloorAt: z.array(count).optional(),
      })
      .optional(),
    previous: z.object({ prefixKey: z.string(), messageKeys: z.array(z.string()) }).optional(),
    keptReasoning: z.array(z.tuple([count, count])).optional(),
    packedAt: z.number().nonnegative().optional(),
  });
}

/** How stores load a saved pack state. */
export const packStateFormat: PersistedFormat<ReturnType<typeof build>> = {
  code: 'invalid_session_state',
  name: 'pack state',
  version: 1,
  schema: lazily(build),
  remedy: 'delete it (the packer rebuilds its state from the transcript)',
};

// The interface of pack-types.ts and this schema describe the same data (checked when compiling).
type _PackStateAgrees = Proven<Agree<Types.PackState, z.output<ReturnType<typeof build>>>>;
