import type { AgentTool, ModelRequest } from '@episodic/core';
import type { ScriptStep } from '@episodic/core/testing';

export declare function approvalScript(request: ModelRequest): ScriptStep;
export declare function approvalTools(directory: string): AgentTool[];
