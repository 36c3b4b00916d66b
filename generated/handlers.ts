// Generated from openapi.yaml by scripts/generate.ts. Do not edit: change spec/ and run `npm run build`.
import type { operations } from "./schema.d.ts";
import type { EventStreamBody, FileBody, MultipartBody } from "../src/stream-bodies.ts";

export interface ListInvoicesInput {
  query?: NonNullable<operations["listInvoices"]["parameters"]["query"]>;
}

export type ListInvoicesResult =
  | { status: 200; body: operations["listInvoices"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listInvoices"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listInvoices"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listInvoices"]["responses"][403]["content"]["application/json"] }
  | { status: 429; body: operations["listInvoices"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listInvoices"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listInvoices"]["responses"][503]["content"]["application/json"] };

export type GetUsageInput = Record<string, never>;

export type GetUsageResult =
  | { status: 200; body: operations["getUsage"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getUsage"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getUsage"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getUsage"]["responses"][403]["content"]["application/json"] }
  | { status: 429; body: operations["getUsage"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getUsage"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getUsage"]["responses"][503]["content"]["application/json"] };

export interface ListEventsInput {
  query?: NonNullable<operations["listEvents"]["parameters"]["query"]>;
}

export type ListEventsResult =
  | { status: 200; body: operations["listEvents"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listEvents"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listEvents"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listEvents"]["responses"][403]["content"]["application/json"] }
  | { status: 429; body: operations["listEvents"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listEvents"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listEvents"]["responses"][503]["content"]["application/json"] };

export interface StreamEventsInput {
  query?: NonNullable<operations["streamEvents"]["parameters"]["query"]>;
  header?: NonNullable<operations["streamEvents"]["parameters"]["header"]>;
}

export type StreamEventsResult =
  | { status: 200; body: EventStreamBody }
  | { status: 400; body: operations["streamEvents"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["streamEvents"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["streamEvents"]["responses"][403]["content"]["application/json"] }
  | { status: 429; body: operations["streamEvents"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["streamEvents"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["streamEvents"]["responses"][503]["content"]["application/json"] };

export interface GetEventInput {
  path: NonNullable<operations["getEvent"]["parameters"]["path"]>;
}

export type GetEventResult =
  | { status: 200; body: operations["getEvent"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getEvent"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getEvent"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getEvent"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getEvent"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getEvent"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getEvent"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getEvent"]["responses"][503]["content"]["application/json"] };

export type GetCurrentApiKeyInput = Record<string, never>;

export type GetCurrentApiKeyResult =
  | { status: 200; body: operations["getCurrentApiKey"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getCurrentApiKey"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getCurrentApiKey"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getCurrentApiKey"]["responses"][403]["content"]["application/json"] }
  | { status: 429; body: operations["getCurrentApiKey"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getCurrentApiKey"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getCurrentApiKey"]["responses"][503]["content"]["application/json"] };

export interface ListProjectsInput {
  query?: NonNullable<operations["listProjects"]["parameters"]["query"]>;
}

export type ListProjectsResult =
  | { status: 200; body: operations["listProjects"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listProjects"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listProjects"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listProjects"]["responses"][403]["content"]["application/json"] }
  | { status: 429; body: operations["listProjects"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listProjects"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listProjects"]["responses"][503]["content"]["application/json"] };

export interface CreateProjectInput {
  header?: NonNullable<operations["createProject"]["parameters"]["header"]>;
  body: NonNullable<operations["createProject"]["requestBody"]>["content"]["application/json"];
}

export type CreateProjectResult =
  | { status: 201; headers: { "Location": operations["createProject"]["responses"][201]["headers"]["Location"] }; body: operations["createProject"]["responses"][201]["content"]["application/json"] }
  | { status: 400; body: operations["createProject"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["createProject"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["createProject"]["responses"][403]["content"]["application/json"] }
  | { status: 409; body: operations["createProject"]["responses"][409]["content"]["application/json"] }
  | { status: 413; body: operations["createProject"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["createProject"]["responses"][415]["content"]["application/json"] }
  | { status: 422; body: operations["createProject"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["createProject"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["createProject"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["createProject"]["responses"][503]["content"]["application/json"] };

export interface GetProjectInput {
  path: NonNullable<operations["getProject"]["parameters"]["path"]>;
}

export type GetProjectResult =
  | { status: 200; body: operations["getProject"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getProject"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getProject"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getProject"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getProject"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getProject"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getProject"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getProject"]["responses"][503]["content"]["application/json"] };

export interface UpdateProjectInput {
  path: NonNullable<operations["updateProject"]["parameters"]["path"]>;
  body: NonNullable<operations["updateProject"]["requestBody"]>["content"]["application/json"];
}

export type UpdateProjectResult =
  | { status: 200; body: operations["updateProject"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["updateProject"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["updateProject"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["updateProject"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["updateProject"]["responses"][404]["content"]["application/json"] }
  | { status: 413; body: operations["updateProject"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["updateProject"]["responses"][415]["content"]["application/json"] }
  | { status: 429; body: operations["updateProject"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["updateProject"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["updateProject"]["responses"][503]["content"]["application/json"] };

export interface DeleteProjectInput {
  path: NonNullable<operations["deleteProject"]["parameters"]["path"]>;
}

export type DeleteProjectResult =
  | { status: 204 }
  | { status: 400; body: operations["deleteProject"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["deleteProject"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["deleteProject"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["deleteProject"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["deleteProject"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["deleteProject"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["deleteProject"]["responses"][503]["content"]["application/json"] };

export interface ListDeploymentsInput {
  path: NonNullable<operations["listDeployments"]["parameters"]["path"]>;
  query?: NonNullable<operations["listDeployments"]["parameters"]["query"]>;
}

export type ListDeploymentsResult =
  | { status: 200; body: operations["listDeployments"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listDeployments"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listDeployments"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listDeployments"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["listDeployments"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["listDeployments"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listDeployments"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listDeployments"]["responses"][503]["content"]["application/json"] };

export interface CreateDeploymentInput {
  path: NonNullable<operations["createDeployment"]["parameters"]["path"]>;
  header?: NonNullable<operations["createDeployment"]["parameters"]["header"]>;
  body?: NonNullable<operations["createDeployment"]["requestBody"]>["content"]["application/json"];
}

export type CreateDeploymentResult =
  | { status: 202; headers: { "Location": operations["createDeployment"]["responses"][202]["headers"]["Location"] }; body: operations["createDeployment"]["responses"][202]["content"]["application/json"] }
  | { status: 400; body: operations["createDeployment"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["createDeployment"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["createDeployment"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["createDeployment"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["createDeployment"]["responses"][409]["content"]["application/json"] }
  | { status: 413; body: operations["createDeployment"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["createDeployment"]["responses"][415]["content"]["application/json"] }
  | { status: 422; body: operations["createDeployment"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["createDeployment"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["createDeployment"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["createDeployment"]["responses"][503]["content"]["application/json"] };

export interface GetDeploymentInput {
  path: NonNullable<operations["getDeployment"]["parameters"]["path"]>;
}

export type GetDeploymentResult =
  | { status: 200; body: operations["getDeployment"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getDeployment"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getDeployment"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getDeployment"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getDeployment"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getDeployment"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getDeployment"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getDeployment"]["responses"][503]["content"]["application/json"] };

export interface RollbackDeploymentInput {
  path: NonNullable<operations["rollbackDeployment"]["parameters"]["path"]>;
  header?: NonNullable<operations["rollbackDeployment"]["parameters"]["header"]>;
}

export type RollbackDeploymentResult =
  | { status: 202; headers: { "Location": operations["rollbackDeployment"]["responses"][202]["headers"]["Location"] }; body: operations["rollbackDeployment"]["responses"][202]["content"]["application/json"] }
  | { status: 400; body: operations["rollbackDeployment"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["rollbackDeployment"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["rollbackDeployment"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["rollbackDeployment"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["rollbackDeployment"]["responses"][409]["content"]["application/json"] }
  | { status: 422; body: operations["rollbackDeployment"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["rollbackDeployment"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["rollbackDeployment"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["rollbackDeployment"]["responses"][503]["content"]["application/json"] };

export interface ListFilesInput {
  path: NonNullable<operations["listFiles"]["parameters"]["path"]>;
  query?: NonNullable<operations["listFiles"]["parameters"]["query"]>;
}

export type ListFilesResult =
  | { status: 200; body: operations["listFiles"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listFiles"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listFiles"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listFiles"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["listFiles"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["listFiles"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listFiles"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listFiles"]["responses"][503]["content"]["application/json"] };

export interface UploadFileInput {
  path: NonNullable<operations["uploadFile"]["parameters"]["path"]>;
  header?: NonNullable<operations["uploadFile"]["parameters"]["header"]>;
  body: MultipartBody;
}

export type UploadFileResult =
  | { status: 201; headers: { "Location": operations["uploadFile"]["responses"][201]["headers"]["Location"] }; body: operations["uploadFile"]["responses"][201]["content"]["application/json"] }
  | { status: 400; body: operations["uploadFile"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["uploadFile"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["uploadFile"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["uploadFile"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["uploadFile"]["responses"][409]["content"]["application/json"] }
  | { status: 413; body: operations["uploadFile"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["uploadFile"]["responses"][415]["content"]["application/json"] }
  | { status: 422; body: operations["uploadFile"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["uploadFile"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["uploadFile"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["uploadFile"]["responses"][503]["content"]["application/json"] };

export interface GetFileInput {
  path: NonNullable<operations["getFile"]["parameters"]["path"]>;
}

export type GetFileResult =
  | { status: 200; body: operations["getFile"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getFile"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getFile"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getFile"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getFile"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getFile"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getFile"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getFile"]["responses"][503]["content"]["application/json"] };

export interface DeleteFileInput {
  path: NonNullable<operations["deleteFile"]["parameters"]["path"]>;
}

export type DeleteFileResult =
  | { status: 204 }
  | { status: 400; body: operations["deleteFile"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["deleteFile"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["deleteFile"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["deleteFile"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["deleteFile"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["deleteFile"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["deleteFile"]["responses"][503]["content"]["application/json"] };

export interface DownloadFileInput {
  path: NonNullable<operations["downloadFile"]["parameters"]["path"]>;
  header?: NonNullable<operations["downloadFile"]["parameters"]["header"]>;
}

export type DownloadFileResult =
  | { status: 200; headers: { "ETag": operations["downloadFile"]["responses"][200]["headers"]["ETag"]; "Accept-Ranges": operations["downloadFile"]["responses"][200]["headers"]["Accept-Ranges"]; "Content-Length": operations["downloadFile"]["responses"][200]["headers"]["Content-Length"] }; body: FileBody }
  | { status: 206; headers: { "ETag": operations["downloadFile"]["responses"][206]["headers"]["ETag"]; "Accept-Ranges": operations["downloadFile"]["responses"][206]["headers"]["Accept-Ranges"]; "Content-Length": operations["downloadFile"]["responses"][206]["headers"]["Content-Length"]; "Content-Range": operations["downloadFile"]["responses"][206]["headers"]["Content-Range"] }; body: FileBody }
  | { status: 304; headers: { "ETag": operations["downloadFile"]["responses"][304]["headers"]["ETag"] } }
  | { status: 400; body: operations["downloadFile"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["downloadFile"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["downloadFile"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["downloadFile"]["responses"][404]["content"]["application/json"] }
  | { status: 416; headers: { "Content-Range": operations["downloadFile"]["responses"][416]["headers"]["Content-Range"] }; body: operations["downloadFile"]["responses"][416]["content"]["application/json"] }
  | { status: 429; body: operations["downloadFile"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["downloadFile"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["downloadFile"]["responses"][503]["content"]["application/json"] };

export interface ForkProjectInput {
  path: NonNullable<operations["forkProject"]["parameters"]["path"]>;
  header?: NonNullable<operations["forkProject"]["parameters"]["header"]>;
  body?: NonNullable<operations["forkProject"]["requestBody"]>["content"]["application/json"];
}

export type ForkProjectResult =
  | { status: 201; headers: { "Location": operations["forkProject"]["responses"][201]["headers"]["Location"] }; body: operations["forkProject"]["responses"][201]["content"]["application/json"] }
  | { status: 400; body: operations["forkProject"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["forkProject"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["forkProject"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["forkProject"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["forkProject"]["responses"][409]["content"]["application/json"] }
  | { status: 413; body: operations["forkProject"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["forkProject"]["responses"][415]["content"]["application/json"] }
  | { status: 422; body: operations["forkProject"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["forkProject"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["forkProject"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["forkProject"]["responses"][503]["content"]["application/json"] };

export interface ListAgentRunsInput {
  path: NonNullable<operations["listAgentRuns"]["parameters"]["path"]>;
  query?: NonNullable<operations["listAgentRuns"]["parameters"]["query"]>;
}

export type ListAgentRunsResult =
  | { status: 200; body: operations["listAgentRuns"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listAgentRuns"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listAgentRuns"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listAgentRuns"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["listAgentRuns"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["listAgentRuns"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listAgentRuns"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listAgentRuns"]["responses"][503]["content"]["application/json"] };

export interface TriggerAgentRunInput {
  path: NonNullable<operations["triggerAgentRun"]["parameters"]["path"]>;
  header?: NonNullable<operations["triggerAgentRun"]["parameters"]["header"]>;
  body: NonNullable<operations["triggerAgentRun"]["requestBody"]>["content"]["application/json"];
}

export type TriggerAgentRunResult =
  | { status: 202; headers: { "Location": operations["triggerAgentRun"]["responses"][202]["headers"]["Location"] }; body: operations["triggerAgentRun"]["responses"][202]["content"]["application/json"] }
  | { status: 400; body: operations["triggerAgentRun"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["triggerAgentRun"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["triggerAgentRun"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["triggerAgentRun"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["triggerAgentRun"]["responses"][409]["content"]["application/json"] }
  | { status: 413; body: operations["triggerAgentRun"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["triggerAgentRun"]["responses"][415]["content"]["application/json"] }
  | { status: 422; body: operations["triggerAgentRun"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["triggerAgentRun"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["triggerAgentRun"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["triggerAgentRun"]["responses"][503]["content"]["application/json"] };

export interface GetAgentRunInput {
  path: NonNullable<operations["getAgentRun"]["parameters"]["path"]>;
}

export type GetAgentRunResult =
  | { status: 200; body: operations["getAgentRun"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getAgentRun"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getAgentRun"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getAgentRun"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getAgentRun"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getAgentRun"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getAgentRun"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getAgentRun"]["responses"][503]["content"]["application/json"] };

export interface CancelAgentRunInput {
  path: NonNullable<operations["cancelAgentRun"]["parameters"]["path"]>;
}

export type CancelAgentRunResult =
  | { status: 200; body: operations["cancelAgentRun"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["cancelAgentRun"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["cancelAgentRun"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["cancelAgentRun"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["cancelAgentRun"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["cancelAgentRun"]["responses"][409]["content"]["application/json"] }
  | { status: 429; body: operations["cancelAgentRun"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["cancelAgentRun"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["cancelAgentRun"]["responses"][503]["content"]["application/json"] };

export interface ListVersionsInput {
  path: NonNullable<operations["listVersions"]["parameters"]["path"]>;
  query?: NonNullable<operations["listVersions"]["parameters"]["query"]>;
}

export type ListVersionsResult =
  | { status: 200; body: operations["listVersions"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listVersions"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listVersions"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listVersions"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["listVersions"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["listVersions"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listVersions"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listVersions"]["responses"][503]["content"]["application/json"] };

export interface CreateVersionInput {
  path: NonNullable<operations["createVersion"]["parameters"]["path"]>;
  header?: NonNullable<operations["createVersion"]["parameters"]["header"]>;
  body?: NonNullable<operations["createVersion"]["requestBody"]>["content"]["application/json"];
}

export type CreateVersionResult =
  | { status: 201; headers: { "Location": operations["createVersion"]["responses"][201]["headers"]["Location"] }; body: operations["createVersion"]["responses"][201]["content"]["application/json"] }
  | { status: 400; body: operations["createVersion"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["createVersion"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["createVersion"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["createVersion"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["createVersion"]["responses"][409]["content"]["application/json"] }
  | { status: 413; body: operations["createVersion"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["createVersion"]["responses"][415]["content"]["application/json"] }
  | { status: 422; body: operations["createVersion"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["createVersion"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["createVersion"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["createVersion"]["responses"][503]["content"]["application/json"] };

export interface GetVersionInput {
  path: NonNullable<operations["getVersion"]["parameters"]["path"]>;
}

export type GetVersionResult =
  | { status: 200; body: operations["getVersion"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getVersion"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getVersion"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getVersion"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getVersion"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getVersion"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getVersion"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getVersion"]["responses"][503]["content"]["application/json"] };

export interface GetVersionDiffInput {
  path: NonNullable<operations["getVersionDiff"]["parameters"]["path"]>;
  query?: NonNullable<operations["getVersionDiff"]["parameters"]["query"]>;
}

export type GetVersionDiffResult =
  | { status: 200; body: operations["getVersionDiff"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getVersionDiff"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getVersionDiff"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getVersionDiff"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getVersionDiff"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getVersionDiff"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getVersionDiff"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getVersionDiff"]["responses"][503]["content"]["application/json"] };

export interface RestoreVersionInput {
  path: NonNullable<operations["restoreVersion"]["parameters"]["path"]>;
  header?: NonNullable<operations["restoreVersion"]["parameters"]["header"]>;
}

export type RestoreVersionResult =
  | { status: 201; headers: { "Location": operations["restoreVersion"]["responses"][201]["headers"]["Location"] }; body: operations["restoreVersion"]["responses"][201]["content"]["application/json"] }
  | { status: 400; body: operations["restoreVersion"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["restoreVersion"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["restoreVersion"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["restoreVersion"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["restoreVersion"]["responses"][409]["content"]["application/json"] }
  | { status: 422; body: operations["restoreVersion"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["restoreVersion"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["restoreVersion"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["restoreVersion"]["responses"][503]["content"]["application/json"] };

export interface ListWebhookEndpointsInput {
  query?: NonNullable<operations["listWebhookEndpoints"]["parameters"]["query"]>;
}

export type ListWebhookEndpointsResult =
  | { status: 200; body: operations["listWebhookEndpoints"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listWebhookEndpoints"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listWebhookEndpoints"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listWebhookEndpoints"]["responses"][403]["content"]["application/json"] }
  | { status: 429; body: operations["listWebhookEndpoints"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listWebhookEndpoints"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listWebhookEndpoints"]["responses"][503]["content"]["application/json"] };

export interface CreateWebhookEndpointInput {
  header?: NonNullable<operations["createWebhookEndpoint"]["parameters"]["header"]>;
  body: NonNullable<operations["createWebhookEndpoint"]["requestBody"]>["content"]["application/json"];
}

export type CreateWebhookEndpointResult =
  | { status: 201; headers: { "Location": operations["createWebhookEndpoint"]["responses"][201]["headers"]["Location"] }; body: operations["createWebhookEndpoint"]["responses"][201]["content"]["application/json"] }
  | { status: 400; body: operations["createWebhookEndpoint"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["createWebhookEndpoint"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["createWebhookEndpoint"]["responses"][403]["content"]["application/json"] }
  | { status: 409; body: operations["createWebhookEndpoint"]["responses"][409]["content"]["application/json"] }
  | { status: 413; body: operations["createWebhookEndpoint"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["createWebhookEndpoint"]["responses"][415]["content"]["application/json"] }
  | { status: 422; body: operations["createWebhookEndpoint"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["createWebhookEndpoint"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["createWebhookEndpoint"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["createWebhookEndpoint"]["responses"][503]["content"]["application/json"] };

export interface GetWebhookEndpointInput {
  path: NonNullable<operations["getWebhookEndpoint"]["parameters"]["path"]>;
}

export type GetWebhookEndpointResult =
  | { status: 200; body: operations["getWebhookEndpoint"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getWebhookEndpoint"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getWebhookEndpoint"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getWebhookEndpoint"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getWebhookEndpoint"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getWebhookEndpoint"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getWebhookEndpoint"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getWebhookEndpoint"]["responses"][503]["content"]["application/json"] };

export interface UpdateWebhookEndpointInput {
  path: NonNullable<operations["updateWebhookEndpoint"]["parameters"]["path"]>;
  body: NonNullable<operations["updateWebhookEndpoint"]["requestBody"]>["content"]["application/json"];
}

export type UpdateWebhookEndpointResult =
  | { status: 200; body: operations["updateWebhookEndpoint"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["updateWebhookEndpoint"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["updateWebhookEndpoint"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["updateWebhookEndpoint"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["updateWebhookEndpoint"]["responses"][404]["content"]["application/json"] }
  | { status: 413; body: operations["updateWebhookEndpoint"]["responses"][413]["content"]["application/json"] }
  | { status: 415; body: operations["updateWebhookEndpoint"]["responses"][415]["content"]["application/json"] }
  | { status: 429; body: operations["updateWebhookEndpoint"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["updateWebhookEndpoint"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["updateWebhookEndpoint"]["responses"][503]["content"]["application/json"] };

export interface DeleteWebhookEndpointInput {
  path: NonNullable<operations["deleteWebhookEndpoint"]["parameters"]["path"]>;
}

export type DeleteWebhookEndpointResult =
  | { status: 204 }
  | { status: 400; body: operations["deleteWebhookEndpoint"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["deleteWebhookEndpoint"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["deleteWebhookEndpoint"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["deleteWebhookEndpoint"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["deleteWebhookEndpoint"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["deleteWebhookEndpoint"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["deleteWebhookEndpoint"]["responses"][503]["content"]["application/json"] };

export interface ListWebhookDeliveriesInput {
  path: NonNullable<operations["listWebhookDeliveries"]["parameters"]["path"]>;
  query?: NonNullable<operations["listWebhookDeliveries"]["parameters"]["query"]>;
}

export type ListWebhookDeliveriesResult =
  | { status: 200; body: operations["listWebhookDeliveries"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["listWebhookDeliveries"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["listWebhookDeliveries"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["listWebhookDeliveries"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["listWebhookDeliveries"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["listWebhookDeliveries"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["listWebhookDeliveries"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["listWebhookDeliveries"]["responses"][503]["content"]["application/json"] };

export interface GetWebhookDeliveryInput {
  path: NonNullable<operations["getWebhookDelivery"]["parameters"]["path"]>;
}

export type GetWebhookDeliveryResult =
  | { status: 200; body: operations["getWebhookDelivery"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["getWebhookDelivery"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["getWebhookDelivery"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["getWebhookDelivery"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["getWebhookDelivery"]["responses"][404]["content"]["application/json"] }
  | { status: 429; body: operations["getWebhookDelivery"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["getWebhookDelivery"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["getWebhookDelivery"]["responses"][503]["content"]["application/json"] };

export interface RedeliverWebhookDeliveryInput {
  path: NonNullable<operations["redeliverWebhookDelivery"]["parameters"]["path"]>;
  header?: NonNullable<operations["redeliverWebhookDelivery"]["parameters"]["header"]>;
}

export type RedeliverWebhookDeliveryResult =
  | { status: 202; headers: { "Location": operations["redeliverWebhookDelivery"]["responses"][202]["headers"]["Location"] }; body: operations["redeliverWebhookDelivery"]["responses"][202]["content"]["application/json"] }
  | { status: 400; body: operations["redeliverWebhookDelivery"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["redeliverWebhookDelivery"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["redeliverWebhookDelivery"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["redeliverWebhookDelivery"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["redeliverWebhookDelivery"]["responses"][409]["content"]["application/json"] }
  | { status: 422; body: operations["redeliverWebhookDelivery"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["redeliverWebhookDelivery"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["redeliverWebhookDelivery"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["redeliverWebhookDelivery"]["responses"][503]["content"]["application/json"] };

export interface RotateWebhookSecretInput {
  path: NonNullable<operations["rotateWebhookSecret"]["parameters"]["path"]>;
  header?: NonNullable<operations["rotateWebhookSecret"]["parameters"]["header"]>;
}

export type RotateWebhookSecretResult =
  | { status: 200; body: operations["rotateWebhookSecret"]["responses"][200]["content"]["application/json"] }
  | { status: 400; body: operations["rotateWebhookSecret"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["rotateWebhookSecret"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["rotateWebhookSecret"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["rotateWebhookSecret"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["rotateWebhookSecret"]["responses"][409]["content"]["application/json"] }
  | { status: 422; body: operations["rotateWebhookSecret"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["rotateWebhookSecret"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["rotateWebhookSecret"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["rotateWebhookSecret"]["responses"][503]["content"]["application/json"] };

export interface SendTestWebhookEventInput {
  path: NonNullable<operations["sendTestWebhookEvent"]["parameters"]["path"]>;
  header?: NonNullable<operations["sendTestWebhookEvent"]["parameters"]["header"]>;
}

export type SendTestWebhookEventResult =
  | { status: 202; headers: { "Location": operations["sendTestWebhookEvent"]["responses"][202]["headers"]["Location"] }; body: operations["sendTestWebhookEvent"]["responses"][202]["content"]["application/json"] }
  | { status: 400; body: operations["sendTestWebhookEvent"]["responses"][400]["content"]["application/json"] }
  | { status: 401; body: operations["sendTestWebhookEvent"]["responses"][401]["content"]["application/json"] }
  | { status: 403; body: operations["sendTestWebhookEvent"]["responses"][403]["content"]["application/json"] }
  | { status: 404; body: operations["sendTestWebhookEvent"]["responses"][404]["content"]["application/json"] }
  | { status: 409; body: operations["sendTestWebhookEvent"]["responses"][409]["content"]["application/json"] }
  | { status: 422; body: operations["sendTestWebhookEvent"]["responses"][422]["content"]["application/json"] }
  | { status: 429; body: operations["sendTestWebhookEvent"]["responses"][429]["content"]["application/json"] }
  | { status: 500; body: operations["sendTestWebhookEvent"]["responses"][500]["content"]["application/json"] }
  | { status: 503; body: operations["sendTestWebhookEvent"]["responses"][503]["content"]["application/json"] };

/** The server stubs: one handler per operation of the `/v1` pipeline (not the OAuth endpoints). */
export interface Handlers<Context> {
  /** GET /v1/billing/invoices: List invoices. Scope: billing:read. */
  listInvoices(input: ListInvoicesInput, context: Context): Promise<ListInvoicesResult>;
  /** GET /v1/billing/usage: Get plan usage. Scope: billing:read. */
  getUsage(input: GetUsageInput, context: Context): Promise<GetUsageResult>;
  /** GET /v1/events: List events. Scope: webhooks:read. */
  listEvents(input: ListEventsInput, context: Context): Promise<ListEventsResult>;
  /** GET /v1/events/stream: Follow events live. Scope: any valid key. */
  streamEvents(input: StreamEventsInput, context: Context): Promise<StreamEventsResult>;
  /** GET /v1/events/{event_id}: Get an event. Scope: webhooks:read. */
  getEvent(input: GetEventInput, context: Context): Promise<GetEventResult>;
  /** GET /v1/key: Get the calling API key. Scope: any valid key. */
  getCurrentApiKey(input: GetCurrentApiKeyInput, context: Context): Promise<GetCurrentApiKeyResult>;
  /** GET /v1/projects: List projects. Scope: projects:read. */
  listProjects(input: ListProjectsInput, context: Context): Promise<ListProjectsResult>;
  /** POST /v1/projects: Create a project. Scope: projects:write. */
  createProject(input: CreateProjectInput, context: Context): Promise<CreateProjectResult>;
  /** GET /v1/projects/{project_id}: Get a project. Scope: projects:read. */
  getProject(input: GetProjectInput, context: Context): Promise<GetProjectResult>;
  /** PATCH /v1/projects/{project_id}: Update a project. Scope: projects:write. */
  updateProject(input: UpdateProjectInput, context: Context): Promise<UpdateProjectResult>;
  /** DELETE /v1/projects/{project_id}: Delete a project. Scope: projects:write. */
  deleteProject(input: DeleteProjectInput, context: Context): Promise<DeleteProjectResult>;
  /** GET /v1/projects/{project_id}/deployments: List a project's deployments. Scope: deployments:read. */
  listDeployments(input: ListDeploymentsInput, context: Context): Promise<ListDeploymentsResult>;
  /** POST /v1/projects/{project_id}/deployments: Create a deployment. Scope: deployments:write. */
  createDeployment(input: CreateDeploymentInput, context: Context): Promise<CreateDeploymentResult>;
  /** GET /v1/projects/{project_id}/deployments/{deployment_id}: Get a deployment. Scope: deployments:read. */
  getDeployment(input: GetDeploymentInput, context: Context): Promise<GetDeploymentResult>;
  /** POST /v1/projects/{project_id}/deployments/{deployment_id}/rollback: Roll back to a deployment. Scope: deployments:write. */
  rollbackDeployment(input: RollbackDeploymentInput, context: Context): Promise<RollbackDeploymentResult>;
  /** GET /v1/projects/{project_id}/files: List a project's files. Scope: files:read. */
  listFiles(input: ListFilesInput, context: Context): Promise<ListFilesResult>;
  /** POST /v1/projects/{project_id}/files: Upload a file. Scope: files:write. */
  uploadFile(input: UploadFileInput, context: Context): Promise<UploadFileResult>;
  /** GET /v1/projects/{project_id}/files/{file_id}: Get a file's metadata. Scope: files:read. */
  getFile(input: GetFileInput, context: Context): Promise<GetFileResult>;
  /** DELETE /v1/projects/{project_id}/files/{file_id}: Delete a file. Scope: files:write. */
  deleteFile(input: DeleteFileInput, context: Context): Promise<DeleteFileResult>;
  /** GET /v1/projects/{project_id}/files/{file_id}/content: Download a file. Scope: files:read. */
  downloadFile(input: DownloadFileInput, context: Context): Promise<DownloadFileResult>;
  /** POST /v1/projects/{project_id}/fork: Fork a project. Scope: projects:write. */
  forkProject(input: ForkProjectInput, context: Context): Promise<ForkProjectResult>;
  /** GET /v1/projects/{project_id}/runs: List a project's agent runs. Scope: projects:read. */
  listAgentRuns(input: ListAgentRunsInput, context: Context): Promise<ListAgentRunsResult>;
  /** POST /v1/projects/{project_id}/runs: Trigger an agent run. Scope: agents:run. */
  triggerAgentRun(input: TriggerAgentRunInput, context: Context): Promise<TriggerAgentRunResult>;
  /** GET /v1/projects/{project_id}/runs/{run_id}: Get an agent run. Scope: projects:read. */
  getAgentRun(input: GetAgentRunInput, context: Context): Promise<GetAgentRunResult>;
  /** POST /v1/projects/{project_id}/runs/{run_id}/cancel: Cancel an agent run. Scope: agents:run. */
  cancelAgentRun(input: CancelAgentRunInput, context: Context): Promise<CancelAgentRunResult>;
  /** GET /v1/projects/{project_id}/versions: List a project's versions. Scope: projects:read. */
  listVersions(input: ListVersionsInput, context: Context): Promise<ListVersionsResult>;
  /** POST /v1/projects/{project_id}/versions: Create a checkpoint version. Scope: projects:write. */
  createVersion(input: CreateVersionInput, context: Context): Promise<CreateVersionResult>;
  /** GET /v1/projects/{project_id}/versions/{version_id}: Get a version. Scope: projects:read. */
  getVersion(input: GetVersionInput, context: Context): Promise<GetVersionResult>;
  /** GET /v1/projects/{project_id}/versions/{version_id}/diff: Compare two versions. Scope: projects:read. */
  getVersionDiff(input: GetVersionDiffInput, context: Context): Promise<GetVersionDiffResult>;
  /** POST /v1/projects/{project_id}/versions/{version_id}/restore: Restore a version. Scope: projects:write. */
  restoreVersion(input: RestoreVersionInput, context: Context): Promise<RestoreVersionResult>;
  /** GET /v1/webhooks: List webhook endpoints. Scope: webhooks:read. */
  listWebhookEndpoints(input: ListWebhookEndpointsInput, context: Context): Promise<ListWebhookEndpointsResult>;
  /** POST /v1/webhooks: Create a webhook endpoint. Scope: webhooks:write. */
  createWebhookEndpoint(input: CreateWebhookEndpointInput, context: Context): Promise<CreateWebhookEndpointResult>;
  /** GET /v1/webhooks/{webhook_endpoint_id}: Get a webhook endpoint. Scope: webhooks:read. */
  getWebhookEndpoint(input: GetWebhookEndpointInput, context: Context): Promise<GetWebhookEndpointResult>;
  /** PATCH /v1/webhooks/{webhook_endpoint_id}: Update a webhook endpoint. Scope: webhooks:write. */
  updateWebhookEndpoint(input: UpdateWebhookEndpointInput, context: Context): Promise<UpdateWebhookEndpointResult>;
  /** DELETE /v1/webhooks/{webhook_endpoint_id}: Delete a webhook endpoint. Scope: webhooks:write. */
  deleteWebhookEndpoint(input: DeleteWebhookEndpointInput, context: Context): Promise<DeleteWebhookEndpointResult>;
  /** GET /v1/webhooks/{webhook_endpoint_id}/deliveries: List an endpoint's deliveries. Scope: webhooks:read. */
  listWebhookDeliveries(input: ListWebhookDeliveriesInput, context: Context): Promise<ListWebhookDeliveriesResult>;
  /** GET /v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id}: Get a delivery. Scope: webhooks:read. */
  getWebhookDelivery(input: GetWebhookDeliveryInput, context: Context): Promise<GetWebhookDeliveryResult>;
  /** POST /v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver: Redeliver an event. Scope: webhooks:write. */
  redeliverWebhookDelivery(input: RedeliverWebhookDeliveryInput, context: Context): Promise<RedeliverWebhookDeliveryResult>;
  /** POST /v1/webhooks/{webhook_endpoint_id}/rotate-secret: Rotate a webhook endpoint's secret. Scope: webhooks:write. */
  rotateWebhookSecret(input: RotateWebhookSecretInput, context: Context): Promise<RotateWebhookSecretResult>;
  /** POST /v1/webhooks/{webhook_endpoint_id}/test: Send a test event. Scope: webhooks:write. */
  sendTestWebhookEvent(input: SendTestWebhookEventInput, context: Context): Promise<SendTestWebhookEventResult>;
}

export type OperationId = keyof Handlers<unknown>;

/** What the HTTP pipeline needs to know of each operation. */
export const operationMeta = {
  listInvoices: { method: "get", path: "/v1/billing/invoices", scopes: ["billing:read"], idempotent: false },
  getUsage: { method: "get", path: "/v1/billing/usage", scopes: ["billing:read"], idempotent: false },
  listEvents: { method: "get", path: "/v1/events", scopes: ["webhooks:read"], idempotent: false },
  streamEvents: { method: "get", path: "/v1/events/stream", scopes: [], idempotent: false },
  getEvent: { method: "get", path: "/v1/events/{event_id}", scopes: ["webhooks:read"], idempotent: false },
  getCurrentApiKey: { method: "get", path: "/v1/key", scopes: [], idempotent: false },
  listProjects: { method: "get", path: "/v1/projects", scopes: ["projects:read"], idempotent: false },
  createProject: { method: "post", path: "/v1/projects", scopes: ["projects:write"], idempotent: true },
  getProject: { method: "get", path: "/v1/projects/{project_id}", scopes: ["projects:read"], idempotent: false },
  updateProject: { method: "patch", path: "/v1/projects/{project_id}", scopes: ["projects:write"], idempotent: false },
  deleteProject: { method: "delete", path: "/v1/projects/{project_id}", scopes: ["projects:write"], idempotent: false },
  listDeployments: { method: "get", path: "/v1/projects/{project_id}/deployments", scopes: ["deployments:read"], idempotent: false },
  createDeployment: { method: "post", path: "/v1/projects/{project_id}/deployments", scopes: ["deployments:write"], idempotent: true },
  getDeployment: { method: "get", path: "/v1/projects/{project_id}/deployments/{deployment_id}", scopes: ["deployments:read"], idempotent: false },
  rollbackDeployment: { method: "post", path: "/v1/projects/{project_id}/deployments/{deployment_id}/rollback", scopes: ["deployments:write"], idempotent: true },
  listFiles: { method: "get", path: "/v1/projects/{project_id}/files", scopes: ["files:read"], idempotent: false },
  uploadFile: { method: "post", path: "/v1/projects/{project_id}/files", scopes: ["files:write"], idempotent: true },
  getFile: { method: "get", path: "/v1/projects/{project_id}/files/{file_id}", scopes: ["files:read"], idempotent: false },
  deleteFile: { method: "delete", path: "/v1/projects/{project_id}/files/{file_id}", scopes: ["files:write"], idempotent: false },
  downloadFile: { method: "get", path: "/v1/projects/{project_id}/files/{file_id}/content", scopes: ["files:read"], idempotent: false },
  forkProject: { method: "post", path: "/v1/projects/{project_id}/fork", scopes: ["projects:write"], idempotent: true },
  listAgentRuns: { method: "get", path: "/v1/projects/{project_id}/runs", scopes: ["projects:read"], idempotent: false },
  triggerAgentRun: { method: "post", path: "/v1/projects/{project_id}/runs", scopes: ["agents:run"], idempotent: true },
  getAgentRun: { method: "get", path: "/v1/projects/{project_id}/runs/{run_id}", scopes: ["projects:read"], idempotent: false },
  cancelAgentRun: { method: "post", path: "/v1/projects/{project_id}/runs/{run_id}/cancel", scopes: ["agents:run"], idempotent: false },
  listVersions: { method: "get", path: "/v1/projects/{project_id}/versions", scopes: ["projects:read"], idempotent: false },
  createVersion: { method: "post", path: "/v1/projects/{project_id}/versions", scopes: ["projects:write"], idempotent: true },
  getVersion: { method: "get", path: "/v1/projects/{project_id}/versions/{version_id}", scopes: ["projects:read"], idempotent: false },
  getVersionDiff: { method: "get", path: "/v1/projects/{project_id}/versions/{version_id}/diff", scopes: ["projects:read"], idempotent: false },
  restoreVersion: { method: "post", path: "/v1/projects/{project_id}/versions/{version_id}/restore", scopes: ["projects:write"], idempotent: true },
  listWebhookEndpoints: { method: "get", path: "/v1/webhooks", scopes: ["webhooks:read"], idempotent: false },
  createWebhookEndpoint: { method: "post", path: "/v1/webhooks", scopes: ["webhooks:write"], idempotent: true },
  getWebhookEndpoint: { method: "get", path: "/v1/webhooks/{webhook_endpoint_id}", scopes: ["webhooks:read"], idempotent: false },
  updateWebhookEndpoint: { method: "patch", path: "/v1/webhooks/{webhook_endpoint_id}", scopes: ["webhooks:write"], idempotent: false },
  deleteWebhookEndpoint: { method: "delete", path: "/v1/webhooks/{webhook_endpoint_id}", scopes: ["webhooks:write"], idempotent: false },
  listWebhookDeliveries: { method: "get", path: "/v1/webhooks/{webhook_endpoint_id}/deliveries", scopes: ["webhooks:read"], idempotent: false },
  getWebhookDelivery: { method: "get", path: "/v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id}", scopes: ["webhooks:read"], idempotent: false },
  redeliverWebhookDelivery: { method: "post", path: "/v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver", scopes: ["webhooks:write"], idempotent: true },
  rotateWebhookSecret: { method: "post", path: "/v1/webhooks/{webhook_endpoint_id}/rotate-secret", scopes: ["webhooks:write"], idempotent: true },
  sendTestWebhookEvent: { method: "post", path: "/v1/webhooks/{webhook_endpoint_id}/test", scopes: ["webhooks:write"], idempotent: true },
} as const satisfies Record<OperationId, { method: string; path: string; scopes: readonly string[]; idempotent: boolean }>;
