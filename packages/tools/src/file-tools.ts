/**
 * The read-only file tools as one set, sharing a root.
 */
import type { AgentTool } from '@episodic/core';
import { type ListFilesToolOptions, listFilesTool } from './list-files.js';
import { type ReadFileToolOptions, readFileTool } from './read-file.js';
import { type SearchTextToolOptions, searchTextTool } from './search-text.js';

/** Options of {@link fileTools}: the root plus any option of the three tools. */
export interface FileToolsOptions {
  root: string;
  read?: Omit<ReadFileToolOptions, 'root'>;
  list?: Omit<ListFilesToolOptions, 'root'>;
  search?: Omit<SearchTextToolOptions, 'root'>;
}

/** `read_file`, `list_files` and `search_text`, all confined to `options.root`. */
export function fileTools(options: FileToolsOptions): AgentTool[] {
  const { root } = options;
  return [
    readFileTool({ ...options.read, root }),
    listFilesTool({ ...options.list, root }),
    searchTextTool({ ...options.search, root }),
  ];
}
