import type { AgentTool, ModelRequest } from '@episodic/core';
import type { ScriptStep } from '@episodic/core/testing';

export declare const TOOL_STEPS: number;
export declare function crashScript(request: ModelRequest): ScriptStep;
export declare function workTool(options: { hangAt?: number; ran?: number[] }): AgentTool;
