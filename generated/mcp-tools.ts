// Generated from openapi.3.1.yaml by scripts/generate.ts (scripts/mcp-tools-template.ts says how). Do not edit: change spec/ and run `npm run build`.
import type { McpTool, McpToolCall } from "../src/mcp/tool-types.ts";

/** The contract's version, which the server reports as its own in `initialize`. */
export const contractVersion = "0.1.0";

/** Operations of the `/v1` pipeline that are not tools, and why. */
export const notTools: Readonly<Record<string, string>> = {"streamEvents":"Its answer is a stream of events, which no tool result can carry: follow it over HTTP."};

export const mcpTools: readonly { readonly tool: McpTool; readonly call: McpToolCall }[] = [
  {
    tool: {
      "name": "listInvoices",
      "title": "List invoices",
      "description": "Lists the workspace's invoices, newest first. Test keys see none.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          }
        },
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":[],"query":["limit","cursor"],"answer":"json"},
  },
  {
    tool: {
      "name": "getUsage",
      "title": "Get plan usage",
      "description": "Plan, credits and per-agent consumption of the current billing period.",
      "inputSchema": {
        "type": "object",
        "properties": {},
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":[],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "listEvents",
      "title": "List events",
      "description": "Lists the events of the last 30 days, newest first: the same objects webhooks deliver, for catching up after downtime or reconciling missed deliveries.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          },
          "type": {
            "type": "string",
            "enum": [
              "project.created",
              "project.updated",
              "project.deleted",
              "agent_run.queued",
              "agent_run.started",
              "agent_run.succeeded",
              "agent_run.failed",
              "agent_run.canceled",
              "agent_run.progress",
              "deployment.queued",
              "deployment.ready",
              "deployment.failed",
              "file.uploaded",
              "file.deleted",
              "version.created",
              "webhook.test"
            ],
            "description": "Only events of this type."
          }
        },
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":[],"query":["limit","cursor","type"],"answer":"json"},
  },
  {
    tool: {
      "name": "getEvent",
      "title": "Get an event",
      "description": "Returns one event, as it was delivered.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "event_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "The event's identifier, as in the `webhook-id` delivery header."
          }
        },
        "required": [
          "event_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["event_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "getCurrentApiKey",
      "title": "Get the calling API key",
      "description": "Tells the calling key what it is: its workspace, environment, scopes and expiry. Any valid key may call it.",
      "inputSchema": {
        "type": "object",
        "properties": {},
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":[],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "listProjects",
      "title": "List projects",
      "description": "Lists the workspace's projects, newest first.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          },
          "status": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "Only projects with this status."
          },
          "visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Only projects with this visibility."
          }
        },
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":[],"query":["limit","cursor","status","visibility"],"answer":"json"},
  },
  {
    tool: {
      "name": "createProject",
      "title": "Create a project",
      "description": "Creates a project and queues its initial agent run, then answers at once, before the run has finished: follow `latest_run_id`, poll the project, or await the `agent_run.*` webhook events.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          },
          "body": {
            "type": "object",
            "required": [
              "name",
              "prompt"
            ],
            "properties": {
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "prompt": {
                "type": "string",
                "minLength": 1,
                "maxLength": 20000,
                "description": "Natural-language description of the app to build."
              },
              "agent": {
                "type": "string",
                "enum": [
                  "coding-agent-1",
                  "coding-agent-2",
                  "coding-agent-3"
                ],
                "description": "The AI agent that builds a project. `coding-agent-1` is the default.",
                "default": "coding-agent-1"
              },
              "visibility": {
                "type": "string",
                "enum": [
                  "private",
                  "unlisted",
                  "public"
                ],
                "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default).",
                "default": "private"
              },
              "template": {
                "type": [
                  "string",
                  "null"
                ],
                "maxLength": 20,
                "description": "The starting template: `blank`, `landing-page`, `dashboard`, `web-app` or `api-service`; null or absent for `blank`."
              },
              "max_credits": {
                "type": "integer",
                "minimum": 1,
                "maximum": 1000000000,
                "description": "The most credits the initial run may use; it ends `failed` (`budget_exceeded`) when it would use more."
              }
            },
            "additionalProperties": false
          }
        },
        "required": [
          "body"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":[],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getProject",
      "title": "Get a project",
      "description": "Returns a project, with its `status` and `latest_run_id` for following the current agent run.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "updateProject",
      "title": "Update a project",
      "description": "Changes a project's name, default agent or visibility. Fields not sent keep their value.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "body": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "agent": {
                "type": "string",
                "enum": [
                  "coding-agent-1",
                  "coding-agent-2",
                  "coding-agent-3"
                ],
                "description": "The agent used from now on for runs that do not name one."
              },
              "visibility": {
                "type": "string",
                "enum": [
                  "private",
                  "unlisted",
                  "public"
                ],
                "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
              }
            },
            "description": "Fields to change; absent fields keep their value.",
            "additionalProperties": false
          }
        },
        "required": [
          "project_id",
          "body"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": true,
        "idempotentHint": true
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "deleteProject",
      "title": "Delete a project",
      "description": "Deletes a project with its agent runs, deployments and files. Its published app goes offline.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": true,
        "idempotentHint": true
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"none"},
  },
  {
    tool: {
      "name": "listDeployments",
      "title": "List a project's deployments",
      "description": "Lists the project's deployments, newest first.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          },
          "target": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "Only deployments to this target."
          },
          "status": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Only deployments with this status."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id"],"query":["limit","cursor","target","status"],"answer":"json"},
  },
  {
    tool: {
      "name": "createDeployment",
      "title": "Create a deployment",
      "description": "Deploys a version of the project (named by `version_id`, by the `run_id` that recorded it, or the latest) and answers at once with the queued deployment.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          },
          "body": {
            "type": "object",
            "properties": {
              "run_id": {
                "type": "string",
                "maxLength": 68,
                "pattern": "^run_[0-9A-Za-z]{8,64}$",
                "description": "The succeeded agent run whose version to deploy."
              },
              "version_id": {
                "type": "string",
                "maxLength": 68,
                "pattern": "^ver_[0-9A-Za-z]{8,64}$",
                "description": "The version to deploy (not with `run_id`); the project's latest version when neither is sent."
              },
              "target": {
                "type": "string",
                "enum": [
                  "production",
                  "preview"
                ],
                "description": "`production` serves the project's `url`; `preview` gets an address of its own.",
                "default": "production"
              }
            },
            "additionalProperties": false
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getDeployment",
      "title": "Get a deployment",
      "description": "Returns a deployment; poll it until its `status` is final, or await the `deployment.*` events.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "deployment_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "The deployment's identifier."
          }
        },
        "required": [
          "project_id",
          "deployment_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id","deployment_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "rollbackDeployment",
      "title": "Roll back to a deployment",
      "description": "Rolls the target back to this earlier deployment: queues a new deployment of the same build (`rollback_of` names this one) and answers at once with it.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "deployment_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "The deployment's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          }
        },
        "required": [
          "project_id",
          "deployment_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id","deployment_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "listFiles",
      "title": "List a project's files",
      "description": "Lists the project's files, newest first.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id"],"query":["limit","cursor"],"answer":"json"},
  },
  {
    tool: {
      "name": "uploadFile",
      "title": "Upload a file",
      "description": "Upload a file: `body` holds the parts, a file as `{text}` or `{content_base64}` (up to 1 MiB; larger files over HTTP).",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          },
          "body": {
            "type": "object",
            "description": "The multipart body's parts, by name.",
            "properties": {
              "file": {
                "type": "object",
                "description": "The file, up to 1 MiB: its content as `text` (UTF-8) or `content_base64`.",
                "properties": {
                  "text": {
                    "type": "string"
                  },
                  "content_base64": {
                    "type": "string"
                  },
                  "filename": {
                    "type": "string",
                    "description": "Default: the last segment of `path`."
                  },
                  "content_type": {
                    "type": "string",
                    "description": "Default: application/octet-stream."
                  }
                },
                "oneOf": [
                  {
                    "required": [
                      "text"
                    ]
                  },
                  {
                    "required": [
                      "content_base64"
                    ]
                  }
                ],
                "additionalProperties": false
              },
              "path": {
                "type": "string",
                "minLength": 1,
                "maxLength": 512,
                "description": "Path to store the file at; the uploaded filename when absent."
              }
            },
            "required": [
              "file"
            ],
            "additionalProperties": false
          }
        },
        "required": [
          "project_id",
          "body"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","files":["file"],"body":"multipart"},
  },
  {
    tool: {
      "name": "getFile",
      "title": "Get a file's metadata",
      "description": "Returns a file's metadata: path, media type, size and SHA-256.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "file_id": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "The file's identifier."
          }
        },
        "required": [
          "project_id",
          "file_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id","file_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "deleteFile",
      "title": "Delete a file",
      "description": "Deletes the file; its path may then be uploaded again.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "file_id": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "The file's identifier."
          }
        },
        "required": [
          "project_id",
          "file_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": true,
        "idempotentHint": true
      }
    },
    call: {"path":["project_id","file_id"],"query":[],"answer":"none"},
  },
  {
    tool: {
      "name": "downloadFile",
      "title": "Download a file",
      "description": "Download a file: the whole file as an embedded resource, UTF-8 text or a base64 blob (up to 1 MiB; larger files over HTTP).",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "file_id": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "The file's identifier."
          }
        },
        "required": [
          "project_id",
          "file_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id","file_id"],"query":[],"answer":"binary"},
  },
  {
    tool: {
      "name": "forkProject",
      "title": "Fork a project",
      "description": "Creates a new project, in the same workspace and environment, with the files of one of this project's versions: the fork's version 1 (`source: fork`), no runs, and `forked_from`.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          },
          "body": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100,
                "description": "The fork's name; \"<source name> (fork)\" when absent."
              },
              "version_id": {
                "type": "string",
                "maxLength": 68,
                "pattern": "^ver_[0-9A-Za-z]{8,64}$",
                "description": "The source's version to start from; its latest version when absent."
              },
              "visibility": {
                "type": "string",
                "enum": [
                  "private",
                  "unlisted",
                  "public"
                ],
                "description": "The fork's visibility; the source's when absent."
              }
            },
            "additionalProperties": false
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "listAgentRuns",
      "title": "List a project's agent runs",
      "description": "Lists the project's agent runs, newest first.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          },
          "status": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Only runs with this status."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id"],"query":["limit","cursor","status"],"answer":"json"},
  },
  {
    tool: {
      "name": "triggerAgentRun",
      "title": "Trigger an agent run",
      "description": "Queues an agent run on the project and answers at once with the queued run. Answers `409 conflict` while the project has another run that is not final.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          },
          "body": {
            "type": "object",
            "required": [
              "prompt"
            ],
            "properties": {
              "prompt": {
                "type": "string",
                "minLength": 1,
                "maxLength": 20000,
                "description": "What the agent should do to the project, in natural language."
              },
              "agent": {
                "type": "string",
                "enum": [
                  "coding-agent-1",
                  "coding-agent-2",
                  "coding-agent-3"
                ],
                "description": "The agent to use; the project's `agent` when absent."
              },
              "attachments": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "file_id"
                  ],
                  "properties": {
                    "file_id": {
                      "type": "string",
                      "maxLength": 69,
                      "pattern": "^file_[0-9A-Za-z]{8,64}$",
                      "description": "Identifier of a file: `file_` and 8–64 letters and digits."
                    }
                  },
                  "additionalProperties": false
                },
                "maxItems": 10,
                "description": "Files of the project to give the agent with the prompt: an image it may use in the page, a text file it may read."
              },
              "max_credits": {
                "type": "integer",
                "minimum": 1,
                "maximum": 1000000000,
                "description": "The most credits the run may use; it ends `failed` (`budget_exceeded`) when it would use more."
              }
            },
            "additionalProperties": false
          }
        },
        "required": [
          "project_id",
          "body"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getAgentRun",
      "title": "Get an agent run",
      "description": "Returns an agent run; poll it until its `status` is final, or await the `agent_run.*` events.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "run_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "The agent run's identifier."
          }
        },
        "required": [
          "project_id",
          "run_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id","run_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "cancelAgentRun",
      "title": "Cancel an agent run",
      "description": "Cancels a `queued` or `running` run and answers with it, now `canceled`.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "run_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "The agent run's identifier."
          }
        },
        "required": [
          "project_id",
          "run_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id","run_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "listVersions",
      "title": "List a project's versions",
      "description": "Lists the project's versions, newest first.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id"],"query":["limit","cursor"],"answer":"json"},
  },
  {
    tool: {
      "name": "createVersion",
      "title": "Create a checkpoint version",
      "description": "Records the project's current files (after uploads and deletes through the Files API) as a new version, a checkpoint to diff, restore, fork or deploy later.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          },
          "body": {
            "type": "object",
            "properties": {
              "message": {
                "type": "string",
                "minLength": 1,
                "maxLength": 1000,
                "description": "What this checkpoint is, for people."
              }
            },
            "additionalProperties": false
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getVersion",
      "title": "Get a version",
      "description": "Returns a version.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "version_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^ver_[0-9A-Za-z]{8,64}$",
            "description": "The version's identifier."
          }
        },
        "required": [
          "project_id",
          "version_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id","version_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "getVersionDiff",
      "title": "Compare two versions",
      "description": "What changed from `base` (by default the version before; for version 1, the empty tree) to this version, file by file, with a unified diff of each text file.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "version_id": {
            "$ref": "#/$defs/VersionId",
            "description": "The version's identifier."
          },
          "base": {
            "$ref": "#/$defs/VersionId",
            "description": "The version to compare against, of the same project; the version numbered one less when absent."
          }
        },
        "required": [
          "project_id",
          "version_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "VersionId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^ver_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a version: `ver_` and 8–64 letters and digits."
          }
        }
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id","version_id"],"query":["base"],"answer":"json"},
  },
  {
    tool: {
      "name": "restoreVersion",
      "title": "Restore a version",
      "description": "Makes the project's files exactly this version's (files added since are removed) and records a new version (`source: restore`, `restored_from`).",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "The project's identifier."
          },
          "version_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^ver_[0-9A-Za-z]{8,64}$",
            "description": "The version's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          }
        },
        "required": [
          "project_id",
          "version_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["project_id","version_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "listWebhookEndpoints",
      "title": "List webhook endpoints",
      "description": "Lists the workspace's webhook endpoints, newest first.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          }
        },
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":[],"query":["limit","cursor"],"answer":"json"},
  },
  {
    tool: {
      "name": "createWebhookEndpoint",
      "title": "Create a webhook endpoint",
      "description": "Registers an endpoint. The answer carries the signing `secret`, shown this once.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          },
          "body": {
            "type": "object",
            "required": [
              "url",
              "enabled_events"
            ],
            "properties": {
              "url": {
                "type": "string",
                "maxLength": 2048,
                "format": "uri",
                "pattern": "^https?://",
                "description": "See `WebhookEndpoint.url` for the addresses accepted."
              },
              "description": {
                "type": "string",
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "type": "string",
                      "enum": [
                        "project.created",
                        "project.updated",
                        "project.deleted",
                        "agent_run.queued",
                        "agent_run.started",
                        "agent_run.succeeded",
                        "agent_run.failed",
                        "agent_run.canceled",
                        "agent_run.progress",
                        "deployment.queued",
                        "deployment.ready",
                        "deployment.failed",
                        "file.uploaded",
                        "file.deleted",
                        "version.created",
                        "webhook.test"
                      ],
                      "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version: receivers ignore kinds they do not know."
                    },
                    {
                      "type": "string",
                      "enum": [
                        "*"
                      ]
                    }
                  ]
                },
                "minItems": 1,
                "maxItems": 20
              }
            },
            "additionalProperties": false
          }
        },
        "required": [
          "body"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":[],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getWebhookEndpoint",
      "title": "Get a webhook endpoint",
      "description": "Returns a webhook endpoint, without its secret.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "updateWebhookEndpoint",
      "title": "Update a webhook endpoint",
      "description": "Changes the URL, description, event types or status. Fields not sent keep their value.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          },
          "body": {
            "type": "object",
            "properties": {
              "url": {
                "type": "string",
                "maxLength": 2048,
                "format": "uri",
                "pattern": "^https?://",
                "description": "See `WebhookEndpoint.url` for the addresses accepted."
              },
              "description": {
                "type": [
                  "string",
                  "null"
                ],
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "type": "string",
                      "enum": [
                        "project.created",
                        "project.updated",
                        "project.deleted",
                        "agent_run.queued",
                        "agent_run.started",
                        "agent_run.succeeded",
                        "agent_run.failed",
                        "agent_run.canceled",
                        "agent_run.progress",
                        "deployment.queued",
                        "deployment.ready",
                        "deployment.failed",
                        "file.uploaded",
                        "file.deleted",
                        "version.created",
                        "webhook.test"
                      ],
                      "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version: receivers ignore kinds they do not know."
                    },
                    {
                      "type": "string",
                      "enum": [
                        "*"
                      ]
                    }
                  ]
                },
                "minItems": 1,
                "maxItems": 20
              },
              "status": {
                "type": "string",
                "enum": [
                  "enabled",
                  "disabled"
                ],
                "description": "`disabled` endpoints receive nothing until enabled again."
              }
            },
            "description": "Fields to change; absent fields keep their value.",
            "additionalProperties": false
          }
        },
        "required": [
          "webhook_endpoint_id",
          "body"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": true,
        "idempotentHint": true
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "deleteWebhookEndpoint",
      "title": "Delete a webhook endpoint",
      "description": "Deletes the endpoint; pending deliveries to it are dropped.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": true,
        "idempotentHint": true
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"none"},
  },
  {
    tool: {
      "name": "listWebhookDeliveries",
      "title": "List an endpoint's deliveries",
      "description": "Lists the endpoint's deliveries, newest first.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "default": 20,
            "description": "Maximum number of items to return, 1–100."
          },
          "cursor": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$",
            "minLength": 1,
            "maxLength": 512,
            "description": "The `next_cursor` of the previous page. Opaque; valid only for the same list and filters."
          },
          "status": {
            "type": "string",
            "enum": [
              "pending",
              "succeeded",
              "failed"
            ],
            "description": "Only deliveries with this status."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":["limit","cursor","status"],"answer":"json"},
  },
  {
    tool: {
      "name": "getWebhookDelivery",
      "title": "Get a delivery",
      "description": "Returns one delivery: its status and every attempt, with what the endpoint answered.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          },
          "delivery_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "The delivery's identifier."
          }
        },
        "required": [
          "webhook_endpoint_id",
          "delivery_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["webhook_endpoint_id","delivery_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "redeliverWebhookDelivery",
      "title": "Redeliver an event",
      "description": "Sends the delivery's event again, as a new delivery with fresh attempts, and answers with it.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          },
          "delivery_id": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "The delivery's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          }
        },
        "required": [
          "webhook_endpoint_id",
          "delivery_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["webhook_endpoint_id","delivery_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "rotateWebhookSecret",
      "title": "Rotate a webhook endpoint's secret",
      "description": "Rolls the endpoint's signing secret: answers the endpoint with a new `secret`, shown this once.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "sendTestWebhookEvent",
      "title": "Send a test event",
      "description": "Sends a `webhook.test` event to this endpoint (whatever its `enabled_events` and status) and answers at once with the queued delivery.",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "The webhook endpoint's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "description": "The same key within 24 hours replays the first answer; without one, each call runs anew."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"json"},
  },
];
