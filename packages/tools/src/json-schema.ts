/**
 * The zod-to-JSON-Schema conversion of tool input schemas lives in core (agents
 * build tools and output schemas there); this module keeps its place in this package.
 */
export { toolInputSchema } from '@episodic/core/internal';
