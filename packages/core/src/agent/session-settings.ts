/**
 * The loop settings a session runs with: the agent's, plus the session's hand-off
 * setting and a redactor of the secrets known when it opens (the adapter's key, the
 * agent's `secrets`, the environment's keys and tokens, read again at every open).
 * Sessions opened with the same hand-off setting and the same secret values share
 * one settings object and one redactor: compiling the redactor's pattern and copying
 * the agent's settings was a fixed cost of every `agent.session()`. A changed value
 * (a key set in the environment between two opens) builds a new one.
 */
import type { LoopSettings } from '../loop/loop-types.js';
import type { HandoffOptions } from '../reasoning/handoff/handoff-note.js';
import { SecretRedactor } from '../support/secret-redactor.js';

/** The hand-off option as a session or agent gives it. */
type HandoffSetting = boolean | HandoffOptions | undefined;

/** Settings per session, rebuilt only when what they depend on changes (see the module comment). */
export class SessionSettings {
  private last: { handoff: HandoffSetting; secrets: string; settings: LoopSettings } | undefined;

  constructor(private readonly agent: LoopSettings) {}

  /** The settings for a session opened with `handoff` while `secrets` are the values to keep out. */
  forSession(handoff: HandoffSetting, secrets: readonly (string | undefined)[]): LoopSettings {
    // JSON keeps the list unambiguous (a value may hold any separator); it is a few short strings.
    const key = JSON.stringify(secrets);
    const last = this.last;
    if (last && last.handoff === handoff && last.secrets === key) return last.settings;
    const settings: LoopSettings = {
      ...this.agent,
      handoff: handoff === true ? {} : handoff || undefined,
      secrets: new SecretRedactor(secrets),
    };
    this.last = { handoff, secrets: key, settings };
    return settings;
  }
}
