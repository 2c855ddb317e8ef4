/**
 * What the agent loop does next: the one decision its spine acts on after every
 * step, and the value hooks steer it with (`AgentHook.decide`).
 */
import type { ApprovalRequest } from './approval-policy.js';
import type { AssistantMessage, ToolCallPart } from '../message/message.js';
import type { StopReason } from '../model/model-adapter.js';

/**
 * What the loop does next: call the model; run the tool calls of `message`; or end
 * the episode, because the model answered (`final`), a stop condition held (`stop`)
 * or calls wait for approval (`paused`).
 */
export type NextStep =
  | { type: 'call-model' }
  | { type: 'run-tools'; message: AssistantMessage; calls: ToolCallPart[]; stopReason: StopReason | undefined }
  | { type: 'final'; message: AssistantMessage | undefined }
  | { type: 'stop'; message: AssistantMessage }
  | { type: 'paused'; message: AssistantMessage; pending: ApprovalRequest[] };
