/**
 * Approvals: a risky tool waits for a person. The episode pauses with the waiting
 * calls; the decision can come from another process, days later: open the session
 * by id from the same store, approve or reject, resume.
 *
 * Offline by default; set ANTHROPIC_API_KEY to ask Claude instead.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@episodic/core';
import { FileSessionStore } from '@episodic/core/node';
import { scriptedModel } from '@episodic/core/testing';
import { createAnthropicAdapter } from '@episodic/providers/anthropic';
import { defineTool } from '@episodic/tools';
import { z } from 'zod';

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the service to an environment.',
  input: z.object({ env: z.enum(['staging', 'production']) }),
  // Only production needs a person; staging runs at once.
  needsApproval: ({ env }) => env === 'production',
  execute: ({ env }) => `deployed to ${env}`,
});

const model = process.env.ANTHROPIC_API_KEY
  ? createAnthropicAdapter({ model: 'claude-sonnet-4-6' })
  : scriptedModel({ steps: [
      { toolCalls: [{ name: 'deploy', args: { env: 'staging' } }, { name: 'deploy', args: { env: 'production' } }] },
      { text: 'Deployed to staging and production.' },
    ] });

const store = new FileSessionStore({ directory: await mkdtemp(join(tmpdir(), 'episodic-approvals-')) });
const agent = new Agent({ model, tools: [deploy], store });

const first = await agent.session();
const paused = await first.send('Deploy to staging, then production.');
console.log(paused.status, paused.pendingApprovals.map((call) => JSON.stringify(call.args)));

// Later, perhaps in another process: open the session by id, decide, resume.
const later = await agent.session({ id: first.id });
for (const call of later.pendingApprovals) await later.approve(call.callId, { note: 'Release window is open.' });
const done = await later.resume();
console.log(done.status, done.text);
