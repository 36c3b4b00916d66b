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
      "description": "List invoices.\n\nLists the workspace's invoices, newest first. Test keys see none.\n\nRequires the scope billing:read. (GET /v1/billing/invoices)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "format": "int32",
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
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/Invoice"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Invoice": {
            "type": "object",
            "required": [
              "id",
              "number",
              "status",
              "currency",
              "amount_due",
              "amount_paid",
              "period_start",
              "period_end",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/InvoiceId"
              },
              "number": {
                "type": "string",
                "maxLength": 64,
                "pattern": "^[A-Z0-9-]+$",
                "description": "Human-facing invoice number."
              },
              "status": {
                "$ref": "#/$defs/InvoiceStatus"
              },
              "currency": {
                "type": "string",
                "maxLength": 3,
                "pattern": "^[a-z]{3}$",
                "description": "ISO 4217 currency code, lowercase."
              },
              "amount_due": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 100000000000,
                "description": "Amount due, in the currency's smallest unit (cents)."
              },
              "amount_paid": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 100000000000,
                "description": "Amount paid so far, in the currency's smallest unit."
              },
              "period_start": {
                "$ref": "#/$defs/Timestamp"
              },
              "period_end": {
                "$ref": "#/$defs/Timestamp"
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "InvoiceId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^inv_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an invoice: `inv_` and 8–64 letters and digits."
          },
          "InvoiceStatus": {
            "type": "string",
            "enum": [
              "draft",
              "open",
              "paid",
              "void",
              "uncollectible"
            ],
            "description": "Payment state of an invoice, as Stripe names it."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
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
      "description": "Get plan usage.\n\nPlan, credits and per-agent consumption of the current billing period.\n\nRequires the scope billing:read. (GET /v1/billing/usage)",
      "inputSchema": {
        "type": "object",
        "properties": {},
        "additionalProperties": false
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Usage"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AgentUsage": {
            "type": "object",
            "required": [
              "agent",
              "runs",
              "credits_used"
            ],
            "properties": {
              "agent": {
                "$ref": "#/$defs/Agent"
              },
              "runs": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000
              },
              "credits_used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000
              }
            },
            "description": "Consumption of one agent this period."
          },
          "Credits": {
            "type": "object",
            "required": [
              "included",
              "used",
              "remaining"
            ],
            "properties": {
              "included": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits the plan includes each period."
              },
              "used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits consumed this period."
              },
              "remaining": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "`included − used`, never below zero."
              }
            },
            "description": "Credits of the current billing period. Agent runs consume credits."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Plan": {
            "type": "string",
            "enum": [
              "free",
              "pro",
              "team",
              "enterprise"
            ],
            "description": "Billing plan of a workspace. Plans above Pro raise the rate limit."
          },
          "PlanRateLimit": {
            "type": "object",
            "required": [
              "requests_per_minute",
              "burst_per_second"
            ],
            "properties": {
              "requests_per_minute": {
                "type": "integer",
                "format": "int32",
                "minimum": 1,
                "maximum": 1000000
              },
              "burst_per_second": {
                "type": "integer",
                "format": "int32",
                "minimum": 1,
                "maximum": 1000000
              }
            },
            "description": "The request-rate figures of the plan."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Usage": {
            "type": "object",
            "required": [
              "plan",
              "period_start",
              "period_end",
              "credits",
              "by_agent",
              "rate_limit"
            ],
            "properties": {
              "plan": {
                "$ref": "#/$defs/Plan"
              },
              "period_start": {
                "$ref": "#/$defs/Timestamp",
                "description": "Start of the current billing period (the first of the month, UTC)."
              },
              "period_end": {
                "$ref": "#/$defs/Timestamp",
                "description": "End of the current billing period (exclusive)."
              },
              "credits": {
                "$ref": "#/$defs/Credits"
              },
              "by_agent": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/AgentUsage"
                },
                "maxItems": 3,
                "description": "One entry per agent, in the order of the `Agent` values."
              },
              "rate_limit": {
                "$ref": "#/$defs/PlanRateLimit"
              }
            },
            "description": "Plan usage of the key's workspace and environment (test keys see test usage, never charged)."
          }
        }
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
      "description": "List events.\n\nLists the events of the last 30 days, newest first: the same objects webhooks deliver, for\ncatching up after downtime or reconciling missed deliveries.\n\nRequires the scope webhooks:read. (GET /v1/events)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "format": "int32",
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
            "$ref": "#/$defs/EventType",
            "description": "Only events of this type."
          }
        },
        "additionalProperties": false,
        "$defs": {
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/Event"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AgentRun": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "agent",
              "prompt",
              "trigger",
              "status",
              "credits_used",
              "error",
              "summary",
              "created_at",
              "started_at",
              "finished_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "agent": {
                "$ref": "#/$defs/Agent"
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The instruction given to the agent."
              },
              "trigger": {
                "$ref": "#/$defs/AgentRunTrigger"
              },
              "status": {
                "$ref": "#/$defs/AgentRunStatus"
              },
              "credits_used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits consumed so far; final once the run is."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `agent_error` (the agent or its model\nfailed), `timeout` (the run passed its time limit), `insufficient_credits` (the workspace's\ncredits for the period ran out, before or during the run), `invalid_output` (the agent wrote a\npath outside the project, a file over the limits or too many files), `internal_error`."
              },
              "summary": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1000,
                "description": "What the agent reported it did, once the run succeeded; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "started_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When an agent picked the run up; null while queued."
              },
              "finished_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the run reached a final status; null until then."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "AgentRunEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "agent_run.queued",
                  "agent_run.started",
                  "agent_run.succeeded",
                  "agent_run.failed",
                  "agent_run.canceled"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/AgentRun"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "AgentRunProgress": {
            "type": "object",
            "required": [
              "agent_run_id",
              "project_id",
              "message",
              "paths"
            ],
            "properties": {
              "agent_run_id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "message": {
                "type": "string",
                "maxLength": 200,
                "description": "What the agent just did, for people, e.g. `Wrote index.html`."
              },
              "paths": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/ProjectFilePath"
                },
                "maxItems": 500,
                "description": "The paths the run has written so far, sorted (kept only if the run succeeds)."
              }
            },
            "description": "The object of an `agent_run.progress` event: what a running run just did."
          },
          "AgentRunProgressEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "agent_run.progress"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/AgentRunProgress"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "AgentRunStatus": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Life of an agent run: `queued` → `running` → `succeeded` | `failed`. A `queued` or `running` run\nmay be cancelled (→ `canceled`). `succeeded`, `failed` and `canceled` are final. A project has at\nmost one run that is not final at a time."
          },
          "AgentRunTrigger": {
            "type": "string",
            "enum": [
              "project_created",
              "api"
            ],
            "description": "Why a run exists: the initial run queued by creating its project, or a run triggered through the API."
          },
          "AppUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "An absolute http or https URL of at most 2048 characters where a published app is served."
          },
          "Deployment": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "run_id",
              "target",
              "status",
              "url",
              "rollback_of",
              "created_at",
              "error",
              "ready_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/DeploymentId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "run_id": {
                "$ref": "#/$defs/AgentRunId",
                "description": "The agent run whose build is deployed."
              },
              "target": {
                "$ref": "#/$defs/DeploymentTarget"
              },
              "status": {
                "$ref": "#/$defs/DeploymentStatus"
              },
              "url": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 2048,
                "format": "uri",
                "description": "Where this deployment is served: an origin of its own (`https://<label>.<apps domain>/`, or\n`http://<label>.localhost:<port>/` on a local server), which keeps serving this build after it is\nsuperseded. Null until it is `ready`. For a `private` project the URL carries a signed access\ntoken (`?access_token=…`) valid for one hour, renewed on every read."
              },
              "rollback_of": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
                "description": "For a rollback, the earlier deployment whose build this one serves again; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `build_error` (the build refused the\nsnapshot: no `index.html`, a TypeScript or JSX entry point that does not compile, an import of\na file the project does not have), `internal_error`."
              },
              "ready_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When it became `ready`; null before."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "DeploymentEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "deployment.queued",
                  "deployment.ready",
                  "deployment.failed"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/Deployment"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "DeploymentStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Life of a deployment: `queued` → `building` → `ready` | `failed`. When a newer deployment of the\nsame target becomes `ready`, the previous `ready` one becomes `superseded`. Rolling back creates a\nnew deployment of an earlier build rather than reviving the old record, so history is never\nrewritten."
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Event": {
            "anyOf": [
              {
                "$ref": "#/$defs/ProjectEvent"
              },
              {
                "$ref": "#/$defs/AgentRunEvent"
              },
              {
                "$ref": "#/$defs/AgentRunProgressEvent"
              },
              {
                "$ref": "#/$defs/DeploymentEvent"
              },
              {
                "$ref": "#/$defs/FileEvent"
              },
              {
                "$ref": "#/$defs/WebhookTestEvent"
              }
            ],
            "description": "A webhook event, as delivered in the body of a `POST` to a registered endpoint."
          },
          "EventId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an event: `evt_` and 8–64 letters and digits."
          },
          "FileEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "file.uploaded",
                  "file.deleted"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/ProjectFile"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "Project": {
            "type": "object",
            "required": [
              "id",
              "name",
              "agent",
              "visibility",
              "template",
              "status",
              "latest_run_id",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/ProjectId"
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The prompt the project was created from."
              },
              "agent": {
                "$ref": "#/$defs/Agent",
                "description": "The agent used for runs that do not name one."
              },
              "visibility": {
                "$ref": "#/$defs/Visibility"
              },
              "template": {
                "$ref": "#/$defs/Template",
                "description": "The template the project started from; `blank` when none was chosen."
              },
              "status": {
                "$ref": "#/$defs/ProjectStatus"
              },
              "latest_run_id": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^run_[0-9A-Za-z]{8,64}$",
                "description": "The most recent agent run, to poll for completion."
              },
              "url": {
                "$ref": "#/$defs/AppUrl",
                "description": "Address of the project's published app: the origin of its current production deployment, once\none is ready (it moves with each deployment and rollback). For a `private` project it carries a\nsigned access token valid for one hour, renewed on every read; `unlisted` and `public` apps are\nopen to everyone."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "ProjectEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "project.created",
                  "project.updated",
                  "project.deleted"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/Project"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "ProjectFile": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "path",
              "content_type",
              "size_bytes",
              "sha256",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/FileId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "path": {
                "$ref": "#/$defs/ProjectFilePath",
                "description": "Path within the project, unique per project."
              },
              "content_type": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[\\w.+-]+/[\\w.+-]+",
                "description": "The media type given at upload, or `application/octet-stream`."
              },
              "size_bytes": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 26214400
              },
              "sha256": {
                "type": "string",
                "maxLength": 64,
                "pattern": "^[0-9a-f]{64}$",
                "description": "SHA-256 of the content, lowercase hex; also the download's `ETag`."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A file stored with a project. Files are immutable: to change one, delete it and upload again. Upload\nlimit: 25 MiB per file."
          },
          "ProjectFilePath": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "pattern": "^(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*)(/(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*))*$",
            "description": "A path within a project: segments of letters, digits, `.`, `_` and `-` separated by `/`, with no\nempty, `.` or `..` segment."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "ProjectStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "A project mirrors its most recent agent run: `queued` (a run waits for an agent), `building` (a run\nis in progress), `ready` (the last run succeeded), `failed` (the last run failed), `canceled` (the\nlast run was cancelled). A new project starts `queued`, since creating it queues its initial run;\neach triggered run moves it back to `queued`."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Template": {
            "type": "string",
            "enum": [
              "blank",
              "landing-page",
              "dashboard",
              "web-app",
              "api-service"
            ],
            "description": "A starting template: `blank`, or a known skeleton the agent starts from."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookTestEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "webhook.test"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/WebhookTestObject"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "WebhookTestObject": {
            "type": "object",
            "required": [
              "message",
              "webhook_endpoint_id"
            ],
            "properties": {
              "message": {
                "type": "string",
                "maxLength": 200
              },
              "webhook_endpoint_id": {
                "$ref": "#/$defs/WebhookEndpointId"
              }
            },
            "description": "The object of a `webhook.test` event."
          },
          "WorkspaceId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^ws_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a workspace: `ws_` and 8–64 letters and digits."
          }
        }
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
      "description": "Get an event.\n\nReturns one event, as it was delivered.\n\nRequires the scope webhooks:read. (GET /v1/events/{event_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "event_id": {
            "$ref": "#/$defs/EventId",
            "description": "The event's identifier, as in the `webhook-id` delivery header."
          }
        },
        "required": [
          "event_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "EventId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an event: `evt_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Event"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AgentRun": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "agent",
              "prompt",
              "trigger",
              "status",
              "credits_used",
              "error",
              "summary",
              "created_at",
              "started_at",
              "finished_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "agent": {
                "$ref": "#/$defs/Agent"
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The instruction given to the agent."
              },
              "trigger": {
                "$ref": "#/$defs/AgentRunTrigger"
              },
              "status": {
                "$ref": "#/$defs/AgentRunStatus"
              },
              "credits_used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits consumed so far; final once the run is."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `agent_error` (the agent or its model\nfailed), `timeout` (the run passed its time limit), `insufficient_credits` (the workspace's\ncredits for the period ran out, before or during the run), `invalid_output` (the agent wrote a\npath outside the project, a file over the limits or too many files), `internal_error`."
              },
              "summary": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1000,
                "description": "What the agent reported it did, once the run succeeded; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "started_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When an agent picked the run up; null while queued."
              },
              "finished_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the run reached a final status; null until then."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "AgentRunEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "agent_run.queued",
                  "agent_run.started",
                  "agent_run.succeeded",
                  "agent_run.failed",
                  "agent_run.canceled"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/AgentRun"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "AgentRunProgress": {
            "type": "object",
            "required": [
              "agent_run_id",
              "project_id",
              "message",
              "paths"
            ],
            "properties": {
              "agent_run_id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "message": {
                "type": "string",
                "maxLength": 200,
                "description": "What the agent just did, for people, e.g. `Wrote index.html`."
              },
              "paths": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/ProjectFilePath"
                },
                "maxItems": 500,
                "description": "The paths the run has written so far, sorted (kept only if the run succeeds)."
              }
            },
            "description": "The object of an `agent_run.progress` event: what a running run just did."
          },
          "AgentRunProgressEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "agent_run.progress"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/AgentRunProgress"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "AgentRunStatus": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Life of an agent run: `queued` → `running` → `succeeded` | `failed`. A `queued` or `running` run\nmay be cancelled (→ `canceled`). `succeeded`, `failed` and `canceled` are final. A project has at\nmost one run that is not final at a time."
          },
          "AgentRunTrigger": {
            "type": "string",
            "enum": [
              "project_created",
              "api"
            ],
            "description": "Why a run exists: the initial run queued by creating its project, or a run triggered through the API."
          },
          "AppUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "An absolute http or https URL of at most 2048 characters where a published app is served."
          },
          "Deployment": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "run_id",
              "target",
              "status",
              "url",
              "rollback_of",
              "created_at",
              "error",
              "ready_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/DeploymentId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "run_id": {
                "$ref": "#/$defs/AgentRunId",
                "description": "The agent run whose build is deployed."
              },
              "target": {
                "$ref": "#/$defs/DeploymentTarget"
              },
              "status": {
                "$ref": "#/$defs/DeploymentStatus"
              },
              "url": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 2048,
                "format": "uri",
                "description": "Where this deployment is served: an origin of its own (`https://<label>.<apps domain>/`, or\n`http://<label>.localhost:<port>/` on a local server), which keeps serving this build after it is\nsuperseded. Null until it is `ready`. For a `private` project the URL carries a signed access\ntoken (`?access_token=…`) valid for one hour, renewed on every read."
              },
              "rollback_of": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
                "description": "For a rollback, the earlier deployment whose build this one serves again; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `build_error` (the build refused the\nsnapshot: no `index.html`, a TypeScript or JSX entry point that does not compile, an import of\na file the project does not have), `internal_error`."
              },
              "ready_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When it became `ready`; null before."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "DeploymentEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "deployment.queued",
                  "deployment.ready",
                  "deployment.failed"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/Deployment"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "DeploymentStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Life of a deployment: `queued` → `building` → `ready` | `failed`. When a newer deployment of the\nsame target becomes `ready`, the previous `ready` one becomes `superseded`. Rolling back creates a\nnew deployment of an earlier build rather than reviving the old record, so history is never\nrewritten."
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Event": {
            "anyOf": [
              {
                "$ref": "#/$defs/ProjectEvent"
              },
              {
                "$ref": "#/$defs/AgentRunEvent"
              },
              {
                "$ref": "#/$defs/AgentRunProgressEvent"
              },
              {
                "$ref": "#/$defs/DeploymentEvent"
              },
              {
                "$ref": "#/$defs/FileEvent"
              },
              {
                "$ref": "#/$defs/WebhookTestEvent"
              }
            ],
            "description": "A webhook event, as delivered in the body of a `POST` to a registered endpoint."
          },
          "EventId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an event: `evt_` and 8–64 letters and digits."
          },
          "FileEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "file.uploaded",
                  "file.deleted"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/ProjectFile"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "Project": {
            "type": "object",
            "required": [
              "id",
              "name",
              "agent",
              "visibility",
              "template",
              "status",
              "latest_run_id",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/ProjectId"
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The prompt the project was created from."
              },
              "agent": {
                "$ref": "#/$defs/Agent",
                "description": "The agent used for runs that do not name one."
              },
              "visibility": {
                "$ref": "#/$defs/Visibility"
              },
              "template": {
                "$ref": "#/$defs/Template",
                "description": "The template the project started from; `blank` when none was chosen."
              },
              "status": {
                "$ref": "#/$defs/ProjectStatus"
              },
              "latest_run_id": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^run_[0-9A-Za-z]{8,64}$",
                "description": "The most recent agent run, to poll for completion."
              },
              "url": {
                "$ref": "#/$defs/AppUrl",
                "description": "Address of the project's published app: the origin of its current production deployment, once\none is ready (it moves with each deployment and rollback). For a `private` project it carries a\nsigned access token valid for one hour, renewed on every read; `unlisted` and `public` apps are\nopen to everyone."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "ProjectEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "project.created",
                  "project.updated",
                  "project.deleted"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/Project"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "ProjectFile": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "path",
              "content_type",
              "size_bytes",
              "sha256",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/FileId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "path": {
                "$ref": "#/$defs/ProjectFilePath",
                "description": "Path within the project, unique per project."
              },
              "content_type": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[\\w.+-]+/[\\w.+-]+",
                "description": "The media type given at upload, or `application/octet-stream`."
              },
              "size_bytes": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 26214400
              },
              "sha256": {
                "type": "string",
                "maxLength": 64,
                "pattern": "^[0-9a-f]{64}$",
                "description": "SHA-256 of the content, lowercase hex; also the download's `ETag`."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A file stored with a project. Files are immutable: to change one, delete it and upload again. Upload\nlimit: 25 MiB per file."
          },
          "ProjectFilePath": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "pattern": "^(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*)(/(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*))*$",
            "description": "A path within a project: segments of letters, digits, `.`, `_` and `-` separated by `/`, with no\nempty, `.` or `..` segment."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "ProjectStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "A project mirrors its most recent agent run: `queued` (a run waits for an agent), `building` (a run\nis in progress), `ready` (the last run succeeded), `failed` (the last run failed), `canceled` (the\nlast run was cancelled). A new project starts `queued`, since creating it queues its initial run;\neach triggered run moves it back to `queued`."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Template": {
            "type": "string",
            "enum": [
              "blank",
              "landing-page",
              "dashboard",
              "web-app",
              "api-service"
            ],
            "description": "A starting template: `blank`, or a known skeleton the agent starts from."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookTestEvent": {
            "type": "object",
            "required": [
              "id",
              "type",
              "created_at",
              "workspace_id",
              "livemode",
              "data"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/EventId"
              },
              "type": {
                "type": "string",
                "enum": [
                  "webhook.test"
                ]
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "workspace_id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "livemode": {
                "type": "boolean",
                "description": "True for live data, false for test-key data."
              },
              "data": {
                "type": "object",
                "properties": {
                  "object": {
                    "$ref": "#/$defs/WebhookTestObject"
                  }
                },
                "required": [
                  "object"
                ]
              }
            },
            "description": "What every delivery's body carries. The headers of the delivery follow Standard Webhooks:\n`webhook-id` (the event id; the same on every retry, so receivers de-duplicate with it),\n`webhook-timestamp` (Unix seconds of this attempt) and\n`webhook-signature: v1,<base64 HMAC-SHA256 of \"<webhook-id>.<webhook-timestamp>.<raw body>\">`,\nkeyed with the endpoint's secret (the base64 part after `whsec_`). The same value is also sent as\n`X-Svc-Signature`, the header the service description names. During a secret rotation the header\nmay list several space-separated signatures: accept the delivery if any matches. Reject deliveries\nwhose timestamp is more than 5 minutes from your clock, and compare signatures in constant time.\nAnswer any 2xx within 10 seconds to acknowledge; otherwise the delivery is retried with\nexponential backoff (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then marked `failed`."
          },
          "WebhookTestObject": {
            "type": "object",
            "required": [
              "message",
              "webhook_endpoint_id"
            ],
            "properties": {
              "message": {
                "type": "string",
                "maxLength": 200
              },
              "webhook_endpoint_id": {
                "$ref": "#/$defs/WebhookEndpointId"
              }
            },
            "description": "The object of a `webhook.test` event."
          },
          "WorkspaceId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^ws_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a workspace: `ws_` and 8–64 letters and digits."
          }
        }
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
      "description": "Get the calling API key.\n\nTells the calling key what it is: its workspace, environment, scopes and expiry. Any valid key may call it.\n\nRequires any valid key. (GET /v1/key)",
      "inputSchema": {
        "type": "object",
        "properties": {},
        "additionalProperties": false
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/ApiKey"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "ApiKey": {
            "type": "object",
            "required": [
              "id",
              "name",
              "workspace",
              "environment",
              "scopes",
              "display_prefix",
              "last4",
              "created_at",
              "expires_at",
              "last_used_at"
            ],
            "properties": {
              "id": {
                "anyOf": [
                  {
                    "$ref": "#/$defs/ApiKeyId"
                  },
                  {
                    "$ref": "#/$defs/OAuthGrantId"
                  }
                ],
                "description": "The key's id, or for an OAuth access token the id of the grant it was issued under."
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100,
                "description": "The descriptive name given at creation."
              },
              "workspace": {
                "$ref": "#/$defs/Workspace"
              },
              "environment": {
                "$ref": "#/$defs/Environment"
              },
              "scopes": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/Scope"
                },
                "minItems": 1,
                "maxItems": 11
              },
              "display_prefix": {
                "type": "string",
                "maxLength": 20,
                "description": "The start of the secret, for recognizing the key, e.g. `svc_live_4fT9`."
              },
              "last4": {
                "type": "string",
                "minLength": 4,
                "maxLength": 4,
                "description": "The last four characters of the secret."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "expires_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the key stops working; null when it never expires."
              },
              "last_used_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "Approximate time of last use (updated at most once a minute); null before first use."
              },
              "oauth_application": {
                "$ref": "#/$defs/OAuthApplication",
                "description": "For an OAuth access token, the application it was issued to; absent for an API key."
              }
            },
            "description": "What an API key is. The secret itself is never shown again after creation. An OAuth access token\nis used exactly like an API key and is described the same way: its `id` is its grant's\n(`grt_…`), `name` the application's, `environment` always `live`, `scopes` what it may use now\n(the granted scopes within the consenting member's role), and `oauth_application` names the\napplication."
          },
          "ApiKeyId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^key_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an API key: `key_` and 8–64 letters and digits. Not the secret."
          },
          "Environment": {
            "type": "string",
            "enum": [
              "live",
              "test"
            ],
            "description": "`live` keys reach real data; `test` keys reach the workspace's isolated sandbox."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "OAuthApplication": {
            "type": "object",
            "required": [
              "id",
              "name"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/OAuthClientId"
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              }
            },
            "description": "A third-party application acting through OAuth 2.0."
          },
          "OAuthClientId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^pbc_[0-9A-Za-z]{8,64}$",
            "description": "An OAuth application's public identifier, `pbc_…`, given when the operator registers it."
          },
          "OAuthGrantId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^grt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an OAuth grant: `grt_` and 8–64 letters and digits. A grant is one member's consent\nto one application in one workspace; every token issued under it shares it."
          },
          "Plan": {
            "type": "string",
            "enum": [
              "free",
              "pro",
              "team",
              "enterprise"
            ],
            "description": "Billing plan of a workspace. Plans above Pro raise the rate limit."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Scope": {
            "type": "string",
            "enum": [
              "projects:read",
              "projects:write",
              "deployments:read",
              "deployments:write",
              "agents:run",
              "files:read",
              "files:write",
              "billing:read",
              "webhooks:read",
              "webhooks:write",
              "*"
            ],
            "description": "A permission carried by an API key or OAuth token. `*` grants every scope and is the default for\nnew keys. Reading an agent run needs `projects:read` (runs belong to their project); reading\nwebhook deliveries needs `webhooks:read`."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Workspace": {
            "type": "object",
            "required": [
              "id",
              "slug",
              "name",
              "plan"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WorkspaceId"
              },
              "slug": {
                "type": "string",
                "minLength": 1,
                "maxLength": 64,
                "pattern": "^[a-z0-9][a-z0-9-]*$",
                "description": "Short unique name, as used in the admin CLI."
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "plan": {
                "$ref": "#/$defs/Plan"
              }
            }
          },
          "WorkspaceId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^ws_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a workspace: `ws_` and 8–64 letters and digits."
          }
        }
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
      "description": "List projects.\n\nLists the workspace's projects, newest first.\n\nRequires the scope projects:read. (GET /v1/projects)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "format": "int32",
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
            "$ref": "#/$defs/ProjectStatus",
            "description": "Only projects with this status."
          },
          "visibility": {
            "$ref": "#/$defs/Visibility",
            "description": "Only projects with this visibility."
          }
        },
        "additionalProperties": false,
        "$defs": {
          "ProjectStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "A project mirrors its most recent agent run: `queued` (a run waits for an agent), `building` (a run\nis in progress), `ready` (the last run succeeded), `failed` (the last run failed), `canceled` (the\nlast run was cancelled). A new project starts `queued`, since creating it queues its initial run;\neach triggered run moves it back to `queued`."
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/Project"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AppUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "An absolute http or https URL of at most 2048 characters where a published app is served."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Project": {
            "type": "object",
            "required": [
              "id",
              "name",
              "agent",
              "visibility",
              "template",
              "status",
              "latest_run_id",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/ProjectId"
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The prompt the project was created from."
              },
              "agent": {
                "$ref": "#/$defs/Agent",
                "description": "The agent used for runs that do not name one."
              },
              "visibility": {
                "$ref": "#/$defs/Visibility"
              },
              "template": {
                "$ref": "#/$defs/Template",
                "description": "The template the project started from; `blank` when none was chosen."
              },
              "status": {
                "$ref": "#/$defs/ProjectStatus"
              },
              "latest_run_id": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^run_[0-9A-Za-z]{8,64}$",
                "description": "The most recent agent run, to poll for completion."
              },
              "url": {
                "$ref": "#/$defs/AppUrl",
                "description": "Address of the project's published app: the origin of its current production deployment, once\none is ready (it moves with each deployment and rollback). For a `private` project it carries a\nsigned access token valid for one hour, renewed on every read; `unlisted` and `public` apps are\nopen to everyone."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "ProjectStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "A project mirrors its most recent agent run: `queued` (a run waits for an agent), `building` (a run\nis in progress), `ready` (the last run succeeded), `failed` (the last run failed), `canceled` (the\nlast run was cancelled). A new project starts `queued`, since creating it queues its initial run;\neach triggered run moves it back to `queued`."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Template": {
            "type": "string",
            "enum": [
              "blank",
              "landing-page",
              "dashboard",
              "web-app",
              "api-service"
            ],
            "description": "A starting template: `blank`, or a known skeleton the agent starts from."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          }
        }
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
      "description": "Create a project.\n\nCreates a project and queues its initial agent run, then answers at once, before the run has\nfinished: follow `latest_run_id`, poll the project, or await the `agent_run.*` webhook events.\n\nRequires the scope projects:write. (POST /v1/projects)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          },
          "body": {
            "$ref": "#/$defs/CreateProjectRequest",
            "description": "The request body, as the API takes it (JSON)."
          }
        },
        "required": [
          "body"
        ],
        "additionalProperties": false,
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "CreateProjectRequest": {
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
                "$ref": "#/$defs/Agent",
                "default": "coding-agent-1"
              },
              "visibility": {
                "$ref": "#/$defs/Visibility",
                "default": "private"
              },
              "template": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 20,
                "pattern": "^(blank|landing-page|dashboard|web-app|api-service)$",
                "description": "The starting template: `blank`, `landing-page`, `dashboard`, `web-app` or `api-service`; null or\nabsent for `blank`. (A pattern rather than an enum: OpenAPI 3.0 cannot make an enum nullable.)"
              }
            },
            "additionalProperties": false
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Project"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AppUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "An absolute http or https URL of at most 2048 characters where a published app is served."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Project": {
            "type": "object",
            "required": [
              "id",
              "name",
              "agent",
              "visibility",
              "template",
              "status",
              "latest_run_id",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/ProjectId"
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The prompt the project was created from."
              },
              "agent": {
                "$ref": "#/$defs/Agent",
                "description": "The agent used for runs that do not name one."
              },
              "visibility": {
                "$ref": "#/$defs/Visibility"
              },
              "template": {
                "$ref": "#/$defs/Template",
                "description": "The template the project started from; `blank` when none was chosen."
              },
              "status": {
                "$ref": "#/$defs/ProjectStatus"
              },
              "latest_run_id": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^run_[0-9A-Za-z]{8,64}$",
                "description": "The most recent agent run, to poll for completion."
              },
              "url": {
                "$ref": "#/$defs/AppUrl",
                "description": "Address of the project's published app: the origin of its current production deployment, once\none is ready (it moves with each deployment and rollback). For a `private` project it carries a\nsigned access token valid for one hour, renewed on every read; `unlisted` and `public` apps are\nopen to everyone."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "ProjectStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "A project mirrors its most recent agent run: `queued` (a run waits for an agent), `building` (a run\nis in progress), `ready` (the last run succeeded), `failed` (the last run failed), `canceled` (the\nlast run was cancelled). A new project starts `queued`, since creating it queues its initial run;\neach triggered run moves it back to `queued`."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Template": {
            "type": "string",
            "enum": [
              "blank",
              "landing-page",
              "dashboard",
              "web-app",
              "api-service"
            ],
            "description": "A starting template: `blank`, or a known skeleton the agent starts from."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":[],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getProject",
      "title": "Get a project",
      "description": "Get a project.\n\nReturns a project, with its `status` and `latest_run_id` for following the current agent run.\n\nRequires the scope projects:read. (GET /v1/projects/{project_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Project"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AppUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "An absolute http or https URL of at most 2048 characters where a published app is served."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Project": {
            "type": "object",
            "required": [
              "id",
              "name",
              "agent",
              "visibility",
              "template",
              "status",
              "latest_run_id",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/ProjectId"
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The prompt the project was created from."
              },
              "agent": {
                "$ref": "#/$defs/Agent",
                "description": "The agent used for runs that do not name one."
              },
              "visibility": {
                "$ref": "#/$defs/Visibility"
              },
              "template": {
                "$ref": "#/$defs/Template",
                "description": "The template the project started from; `blank` when none was chosen."
              },
              "status": {
                "$ref": "#/$defs/ProjectStatus"
              },
              "latest_run_id": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^run_[0-9A-Za-z]{8,64}$",
                "description": "The most recent agent run, to poll for completion."
              },
              "url": {
                "$ref": "#/$defs/AppUrl",
                "description": "Address of the project's published app: the origin of its current production deployment, once\none is ready (it moves with each deployment and rollback). For a `private` project it carries a\nsigned access token valid for one hour, renewed on every read; `unlisted` and `public` apps are\nopen to everyone."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "ProjectStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "A project mirrors its most recent agent run: `queued` (a run waits for an agent), `building` (a run\nis in progress), `ready` (the last run succeeded), `failed` (the last run failed), `canceled` (the\nlast run was cancelled). A new project starts `queued`, since creating it queues its initial run;\neach triggered run moves it back to `queued`."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Template": {
            "type": "string",
            "enum": [
              "blank",
              "landing-page",
              "dashboard",
              "web-app",
              "api-service"
            ],
            "description": "A starting template: `blank`, or a known skeleton the agent starts from."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          }
        }
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
      "description": "Update a project.\n\nChanges a project's name, default agent or visibility. Fields not sent keep their value.\n\nRequires the scope projects:write. (PATCH /v1/projects/{project_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "body": {
            "$ref": "#/$defs/UpdateProjectRequest",
            "description": "The request body, as the API takes it (JSON)."
          }
        },
        "required": [
          "project_id",
          "body"
        ],
        "additionalProperties": false,
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "UpdateProjectRequest": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "agent": {
                "$ref": "#/$defs/Agent",
                "description": "The agent used from now on for runs that do not name one."
              },
              "visibility": {
                "$ref": "#/$defs/Visibility"
              }
            },
            "description": "Fields to change; absent fields keep their value.",
            "additionalProperties": false
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Project"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AppUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "An absolute http or https URL of at most 2048 characters where a published app is served."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "Project": {
            "type": "object",
            "required": [
              "id",
              "name",
              "agent",
              "visibility",
              "template",
              "status",
              "latest_run_id",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/ProjectId"
              },
              "name": {
                "type": "string",
                "minLength": 1,
                "maxLength": 100
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The prompt the project was created from."
              },
              "agent": {
                "$ref": "#/$defs/Agent",
                "description": "The agent used for runs that do not name one."
              },
              "visibility": {
                "$ref": "#/$defs/Visibility"
              },
              "template": {
                "$ref": "#/$defs/Template",
                "description": "The template the project started from; `blank` when none was chosen."
              },
              "status": {
                "$ref": "#/$defs/ProjectStatus"
              },
              "latest_run_id": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^run_[0-9A-Za-z]{8,64}$",
                "description": "The most recent agent run, to poll for completion."
              },
              "url": {
                "$ref": "#/$defs/AppUrl",
                "description": "Address of the project's published app: the origin of its current production deployment, once\none is ready (it moves with each deployment and rollback). For a `private` project it carries a\nsigned access token valid for one hour, renewed on every read; `unlisted` and `public` apps are\nopen to everyone."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "ProjectStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "canceled"
            ],
            "description": "A project mirrors its most recent agent run: `queued` (a run waits for an agent), `building` (a run\nis in progress), `ready` (the last run succeeded), `failed` (the last run failed), `canceled` (the\nlast run was cancelled). A new project starts `queued`, since creating it queues its initial run;\neach triggered run moves it back to `queued`."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Template": {
            "type": "string",
            "enum": [
              "blank",
              "landing-page",
              "dashboard",
              "web-app",
              "api-service"
            ],
            "description": "A starting template: `blank`, or a known skeleton the agent starts from."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "Visibility": {
            "type": "string",
            "enum": [
              "private",
              "unlisted",
              "public"
            ],
            "description": "Who can see the published app. New projects are `private` unless asked otherwise (the safe default)."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": true
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "deleteProject",
      "title": "Delete a project",
      "description": "Delete a project.\n\nDeletes a project with its agent runs, deployments and files. Its published app goes offline.\nAfterwards the project answers 404 and is gone from lists.\n\nRequires the scope projects:write. (DELETE /v1/projects/{project_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
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
      "description": "List a project's deployments.\n\nLists the project's deployments, newest first.\n\nRequires the scope deployments:read. (GET /v1/projects/{project_id}/deployments)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "limit": {
            "type": "integer",
            "format": "int32",
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
            "$ref": "#/$defs/DeploymentTarget",
            "description": "Only deployments to this target."
          },
          "status": {
            "$ref": "#/$defs/DeploymentStatus",
            "description": "Only deployments with this status."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "DeploymentStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Life of a deployment: `queued` → `building` → `ready` | `failed`. When a newer deployment of the\nsame target becomes `ready`, the previous `ready` one becomes `superseded`. Rolling back creates a\nnew deployment of an earlier build rather than reviving the old record, so history is never\nrewritten."
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/Deployment"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "Deployment": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "run_id",
              "target",
              "status",
              "url",
              "rollback_of",
              "created_at",
              "error",
              "ready_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/DeploymentId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "run_id": {
                "$ref": "#/$defs/AgentRunId",
                "description": "The agent run whose build is deployed."
              },
              "target": {
                "$ref": "#/$defs/DeploymentTarget"
              },
              "status": {
                "$ref": "#/$defs/DeploymentStatus"
              },
              "url": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 2048,
                "format": "uri",
                "description": "Where this deployment is served: an origin of its own (`https://<label>.<apps domain>/`, or\n`http://<label>.localhost:<port>/` on a local server), which keeps serving this build after it is\nsuperseded. Null until it is `ready`. For a `private` project the URL carries a signed access\ntoken (`?access_token=…`) valid for one hour, renewed on every read."
              },
              "rollback_of": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
                "description": "For a rollback, the earlier deployment whose build this one serves again; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `build_error` (the build refused the\nsnapshot: no `index.html`, a TypeScript or JSX entry point that does not compile, an import of\na file the project does not have), `internal_error`."
              },
              "ready_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When it became `ready`; null before."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "DeploymentStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Life of a deployment: `queued` → `building` → `ready` | `failed`. When a newer deployment of the\nsame target becomes `ready`, the previous `ready` one becomes `superseded`. Rolling back creates a\nnew deployment of an earlier build rather than reviving the old record, so history is never\nrewritten."
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
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
      "description": "Create a deployment.\n\nDeploys a succeeded agent run's build and answers at once with the queued deployment. Answers\n`409 conflict` when the project has no succeeded run, or `run_id` names a run that did not succeed.\n\nRequires the scope deployments:write. (POST /v1/projects/{project_id}/deployments)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          },
          "body": {
            "$ref": "#/$defs/CreateDeploymentRequest",
            "description": "The request body, as the API takes it (JSON)."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "CreateDeploymentRequest": {
            "type": "object",
            "properties": {
              "run_id": {
                "$ref": "#/$defs/AgentRunId",
                "description": "The succeeded agent run to deploy; the project's latest succeeded run when absent."
              },
              "target": {
                "$ref": "#/$defs/DeploymentTarget",
                "default": "production"
              }
            },
            "additionalProperties": false
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Deployment"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "Deployment": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "run_id",
              "target",
              "status",
              "url",
              "rollback_of",
              "created_at",
              "error",
              "ready_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/DeploymentId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "run_id": {
                "$ref": "#/$defs/AgentRunId",
                "description": "The agent run whose build is deployed."
              },
              "target": {
                "$ref": "#/$defs/DeploymentTarget"
              },
              "status": {
                "$ref": "#/$defs/DeploymentStatus"
              },
              "url": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 2048,
                "format": "uri",
                "description": "Where this deployment is served: an origin of its own (`https://<label>.<apps domain>/`, or\n`http://<label>.localhost:<port>/` on a local server), which keeps serving this build after it is\nsuperseded. Null until it is `ready`. For a `private` project the URL carries a signed access\ntoken (`?access_token=…`) valid for one hour, renewed on every read."
              },
              "rollback_of": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
                "description": "For a rollback, the earlier deployment whose build this one serves again; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `build_error` (the build refused the\nsnapshot: no `index.html`, a TypeScript or JSX entry point that does not compile, an import of\na file the project does not have), `internal_error`."
              },
              "ready_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When it became `ready`; null before."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "DeploymentStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Life of a deployment: `queued` → `building` → `ready` | `failed`. When a newer deployment of the\nsame target becomes `ready`, the previous `ready` one becomes `superseded`. Rolling back creates a\nnew deployment of an earlier build rather than reviving the old record, so history is never\nrewritten."
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getDeployment",
      "title": "Get a deployment",
      "description": "Get a deployment.\n\nReturns a deployment; poll it until its `status` is final, or await the `deployment.*` events.\n\nRequires the scope deployments:read. (GET /v1/projects/{project_id}/deployments/{deployment_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "deployment_id": {
            "$ref": "#/$defs/DeploymentId",
            "description": "The deployment's identifier."
          }
        },
        "required": [
          "project_id",
          "deployment_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Deployment"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "Deployment": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "run_id",
              "target",
              "status",
              "url",
              "rollback_of",
              "created_at",
              "error",
              "ready_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/DeploymentId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "run_id": {
                "$ref": "#/$defs/AgentRunId",
                "description": "The agent run whose build is deployed."
              },
              "target": {
                "$ref": "#/$defs/DeploymentTarget"
              },
              "status": {
                "$ref": "#/$defs/DeploymentStatus"
              },
              "url": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 2048,
                "format": "uri",
                "description": "Where this deployment is served: an origin of its own (`https://<label>.<apps domain>/`, or\n`http://<label>.localhost:<port>/` on a local server), which keeps serving this build after it is\nsuperseded. Null until it is `ready`. For a `private` project the URL carries a signed access\ntoken (`?access_token=…`) valid for one hour, renewed on every read."
              },
              "rollback_of": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
                "description": "For a rollback, the earlier deployment whose build this one serves again; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `build_error` (the build refused the\nsnapshot: no `index.html`, a TypeScript or JSX entry point that does not compile, an import of\na file the project does not have), `internal_error`."
              },
              "ready_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When it became `ready`; null before."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "DeploymentStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Life of a deployment: `queued` → `building` → `ready` | `failed`. When a newer deployment of the\nsame target becomes `ready`, the previous `ready` one becomes `superseded`. Rolling back creates a\nnew deployment of an earlier build rather than reviving the old record, so history is never\nrewritten."
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
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
      "description": "Roll back to a deployment.\n\nRolls the target back to this earlier deployment: queues a new deployment of the same build\n(`rollback_of` names this one) and answers at once with it. The deployment must have been\n`ready` (now `ready` or `superseded`); otherwise `409 conflict`.\n\nRequires the scope deployments:write. (POST /v1/projects/{project_id}/deployments/{deployment_id}/rollback)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "deployment_id": {
            "$ref": "#/$defs/DeploymentId",
            "description": "The deployment's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          }
        },
        "required": [
          "project_id",
          "deployment_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/Deployment"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "Deployment": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "run_id",
              "target",
              "status",
              "url",
              "rollback_of",
              "created_at",
              "error",
              "ready_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/DeploymentId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "run_id": {
                "$ref": "#/$defs/AgentRunId",
                "description": "The agent run whose build is deployed."
              },
              "target": {
                "$ref": "#/$defs/DeploymentTarget"
              },
              "status": {
                "$ref": "#/$defs/DeploymentStatus"
              },
              "url": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 2048,
                "format": "uri",
                "description": "Where this deployment is served: an origin of its own (`https://<label>.<apps domain>/`, or\n`http://<label>.localhost:<port>/` on a local server), which keeps serving this build after it is\nsuperseded. Null until it is `ready`. For a `private` project the URL carries a signed access\ntoken (`?access_token=…`) valid for one hour, renewed on every read."
              },
              "rollback_of": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 68,
                "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
                "description": "For a rollback, the earlier deployment whose build this one serves again; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `build_error` (the build refused the\nsnapshot: no `index.html`, a TypeScript or JSX entry point that does not compile, an import of\na file the project does not have), `internal_error`."
              },
              "ready_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When it became `ready`; null before."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "DeploymentId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dpl_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a deployment: `dpl_` and 8–64 letters and digits."
          },
          "DeploymentStatus": {
            "type": "string",
            "enum": [
              "queued",
              "building",
              "ready",
              "failed",
              "superseded"
            ],
            "description": "Life of a deployment: `queued` → `building` → `ready` | `failed`. When a newer deployment of the\nsame target becomes `ready`, the previous `ready` one becomes `superseded`. Rolling back creates a\nnew deployment of an earlier build rather than reviving the old record, so history is never\nrewritten."
          },
          "DeploymentTarget": {
            "type": "string",
            "enum": [
              "production",
              "preview"
            ],
            "description": "`production` serves the project's `url`; `preview` gets an address of its own."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["project_id","deployment_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "listFiles",
      "title": "List a project's files",
      "description": "List a project's files.\n\nLists the project's files, newest first.\n\nRequires the scope files:read. (GET /v1/projects/{project_id}/files)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "limit": {
            "type": "integer",
            "format": "int32",
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
        "additionalProperties": false,
        "$defs": {
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/ProjectFile"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "ProjectFile": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "path",
              "content_type",
              "size_bytes",
              "sha256",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/FileId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "path": {
                "$ref": "#/$defs/ProjectFilePath",
                "description": "Path within the project, unique per project."
              },
              "content_type": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[\\w.+-]+/[\\w.+-]+",
                "description": "The media type given at upload, or `application/octet-stream`."
              },
              "size_bytes": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 26214400
              },
              "sha256": {
                "type": "string",
                "maxLength": 64,
                "pattern": "^[0-9a-f]{64}$",
                "description": "SHA-256 of the content, lowercase hex; also the download's `ETag`."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A file stored with a project. Files are immutable: to change one, delete it and upload again. Upload\nlimit: 25 MiB per file."
          },
          "ProjectFilePath": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "pattern": "^(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*)(/(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*))*$",
            "description": "A path within a project: segments of letters, digits, `.`, `_` and `-` separated by `/`, with no\nempty, `.` or `..` segment."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
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
      "description": "Upload a file.\n\nUploads a file as `multipart/form-data` (part `file`, optional part `path`). The body is\nstreamed; files over 25 MiB answer `413 payload_too_large`. A path already taken in the project\nanswers `409 conflict`.\n\nRequires the scope files:write. (POST /v1/projects/{project_id}/files)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          },
          "body": {
            "type": "object",
            "description": "The request's multipart parts, by name; the server makes the multipart body of them.",
            "properties": {
              "file": {
                "type": "object",
                "description": "The file's content, up to 25 MiB. Its filename and `Content-Type` are used when `path` is absent. Give its content as `text` (UTF-8) or as `content_base64`, one of the two.",
                "properties": {
                  "text": {
                    "type": "string",
                    "description": "The content, as UTF-8 text."
                  },
                  "content_base64": {
                    "type": "string",
                    "contentEncoding": "base64",
                    "description": "The content, base64-encoded (for binary files)."
                  },
                  "filename": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 255,
                    "description": "The part's filename (default: the last segment of `path`, or `file`)."
                  },
                  "content_type": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 255,
                    "description": "The part's media type (default: application/octet-stream)."
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
                "allOf": [
                  {
                    "$ref": "#/$defs/ProjectFilePath"
                  }
                ],
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
        "additionalProperties": false,
        "$defs": {
          "ProjectFilePath": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "pattern": "^(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*)(/(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*))*$",
            "description": "A path within a project: segments of letters, digits, `.`, `_` and `-` separated by `/`, with no\nempty, `.` or `..` segment."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/ProjectFile"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "ProjectFile": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "path",
              "content_type",
              "size_bytes",
              "sha256",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/FileId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "path": {
                "$ref": "#/$defs/ProjectFilePath",
                "description": "Path within the project, unique per project."
              },
              "content_type": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[\\w.+-]+/[\\w.+-]+",
                "description": "The media type given at upload, or `application/octet-stream`."
              },
              "size_bytes": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 26214400
              },
              "sha256": {
                "type": "string",
                "maxLength": 64,
                "pattern": "^[0-9a-f]{64}$",
                "description": "SHA-256 of the content, lowercase hex; also the download's `ETag`."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A file stored with a project. Files are immutable: to change one, delete it and upload again. Upload\nlimit: 25 MiB per file."
          },
          "ProjectFilePath": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "pattern": "^(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*)(/(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*))*$",
            "description": "A path within a project: segments of letters, digits, `.`, `_` and `-` separated by `/`, with no\nempty, `.` or `..` segment."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","files":["file"],"body":"multipart"},
  },
  {
    tool: {
      "name": "getFile",
      "title": "Get a file's metadata",
      "description": "Get a file's metadata.\n\nReturns a file's metadata: path, media type, size and SHA-256.\n\nRequires the scope files:read. (GET /v1/projects/{project_id}/files/{file_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "file_id": {
            "$ref": "#/$defs/FileId",
            "description": "The file's identifier."
          }
        },
        "required": [
          "project_id",
          "file_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/ProjectFile"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "ProjectFile": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "path",
              "content_type",
              "size_bytes",
              "sha256",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/FileId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "path": {
                "$ref": "#/$defs/ProjectFilePath",
                "description": "Path within the project, unique per project."
              },
              "content_type": {
                "type": "string",
                "maxLength": 255,
                "pattern": "^[\\w.+-]+/[\\w.+-]+",
                "description": "The media type given at upload, or `application/octet-stream`."
              },
              "size_bytes": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 26214400
              },
              "sha256": {
                "type": "string",
                "maxLength": 64,
                "pattern": "^[0-9a-f]{64}$",
                "description": "SHA-256 of the content, lowercase hex; also the download's `ETag`."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A file stored with a project. Files are immutable: to change one, delete it and upload again. Upload\nlimit: 25 MiB per file."
          },
          "ProjectFilePath": {
            "type": "string",
            "minLength": 1,
            "maxLength": 512,
            "pattern": "^(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*)(/(\\.{0,2}[A-Za-z0-9_-][A-Za-z0-9._-]*|\\.\\.\\.[A-Za-z0-9._-]*))*$",
            "description": "A path within a project: segments of letters, digits, `.`, `_` and `-` separated by `/`, with no\nempty, `.` or `..` segment."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
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
      "description": "Delete a file.\n\nDeletes the file; its path may then be uploaded again.\n\nRequires the scope files:write. (DELETE /v1/projects/{project_id}/files/{file_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "file_id": {
            "$ref": "#/$defs/FileId",
            "description": "The file's identifier."
          }
        },
        "required": [
          "project_id",
          "file_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
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
      "description": "Download a file.\n\nDownloads the file's bytes, streamed, with `Content-Length` and `Accept-Ranges: bytes`. The\n`ETag` is the content's SHA-256 in quotes; files are immutable, so it never changes.\n\n- **Conditional**: `If-None-Match` with the `ETag` (weak or strong) or `*` answers\n`304 Not Modified` with no body. It is checked before `Range`.\n- **Partial**: `Range` with one range of bytes (`bytes=0-99`, `bytes=100-`, `bytes=-500`) answers\n`206 Partial Content` with those bytes, `Content-Range` and the same `ETag` and\n`Content-Disposition`. A last position past the end stops at the end. A range that starts at\nor past the end (any range but a suffix, for an empty file) answers\n`416 range_not_satisfiable`, whose `Content-Range` gives the file's size.\n- **Ignored `Range`**: several ranges (`bytes=0-1,5-6`), a malformed value, another unit, a\nsuffix range of an empty file, or an `If-Range` that is not the current `ETag` (a date\nincluded): the answer is `200` with the whole file.\n\nAs a tool, it answers the whole file as an embedded resource: UTF-8 text, or a base64 blob.\n\nThe headers `Range`, `If-None-Match`, `If-Range` are not tool inputs: they are for HTTP.\n\nRequires the scope files:read. (GET /v1/projects/{project_id}/files/{file_id}/content)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "file_id": {
            "$ref": "#/$defs/FileId",
            "description": "The file's identifier."
          }
        },
        "required": [
          "project_id",
          "file_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "FileId": {
            "type": "string",
            "maxLength": 69,
            "pattern": "^file_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a file: `file_` and 8–64 letters and digits."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "annotations": {
        "readOnlyHint": true
      }
    },
    call: {"path":["project_id","file_id"],"query":[],"answer":"binary"},
  },
  {
    tool: {
      "name": "listAgentRuns",
      "title": "List a project's agent runs",
      "description": "List a project's agent runs.\n\nLists the project's agent runs, newest first.\n\nRequires the scope projects:read. (GET /v1/projects/{project_id}/runs)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "limit": {
            "type": "integer",
            "format": "int32",
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
            "$ref": "#/$defs/AgentRunStatus",
            "description": "Only runs with this status."
          }
        },
        "required": [
          "project_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "AgentRunStatus": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Life of an agent run: `queued` → `running` → `succeeded` | `failed`. A `queued` or `running` run\nmay be cancelled (→ `canceled`). `succeeded`, `failed` and `canceled` are final. A project has at\nmost one run that is not final at a time."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/AgentRun"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AgentRun": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "agent",
              "prompt",
              "trigger",
              "status",
              "credits_used",
              "error",
              "summary",
              "created_at",
              "started_at",
              "finished_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "agent": {
                "$ref": "#/$defs/Agent"
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The instruction given to the agent."
              },
              "trigger": {
                "$ref": "#/$defs/AgentRunTrigger"
              },
              "status": {
                "$ref": "#/$defs/AgentRunStatus"
              },
              "credits_used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits consumed so far; final once the run is."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `agent_error` (the agent or its model\nfailed), `timeout` (the run passed its time limit), `insufficient_credits` (the workspace's\ncredits for the period ran out, before or during the run), `invalid_output` (the agent wrote a\npath outside the project, a file over the limits or too many files), `internal_error`."
              },
              "summary": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1000,
                "description": "What the agent reported it did, once the run succeeded; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "started_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When an agent picked the run up; null while queued."
              },
              "finished_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the run reached a final status; null until then."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "AgentRunStatus": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Life of an agent run: `queued` → `running` → `succeeded` | `failed`. A `queued` or `running` run\nmay be cancelled (→ `canceled`). `succeeded`, `failed` and `canceled` are final. A project has at\nmost one run that is not final at a time."
          },
          "AgentRunTrigger": {
            "type": "string",
            "enum": [
              "project_created",
              "api"
            ],
            "description": "Why a run exists: the initial run queued by creating its project, or a run triggered through the API."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
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
      "description": "Trigger an agent run.\n\nQueues an agent run on the project and answers at once with the queued run. Answers\n`409 conflict` while the project has another run that is not final.\n\nRequires the scope agents:run. (POST /v1/projects/{project_id}/runs)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          },
          "body": {
            "$ref": "#/$defs/TriggerAgentRunRequest",
            "description": "The request body, as the API takes it (JSON)."
          }
        },
        "required": [
          "project_id",
          "body"
        ],
        "additionalProperties": false,
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "TriggerAgentRunRequest": {
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
                "$ref": "#/$defs/Agent",
                "description": "The agent to use; the project's `agent` when absent."
              }
            },
            "additionalProperties": false
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/AgentRun"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AgentRun": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "agent",
              "prompt",
              "trigger",
              "status",
              "credits_used",
              "error",
              "summary",
              "created_at",
              "started_at",
              "finished_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "agent": {
                "$ref": "#/$defs/Agent"
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The instruction given to the agent."
              },
              "trigger": {
                "$ref": "#/$defs/AgentRunTrigger"
              },
              "status": {
                "$ref": "#/$defs/AgentRunStatus"
              },
              "credits_used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits consumed so far; final once the run is."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `agent_error` (the agent or its model\nfailed), `timeout` (the run passed its time limit), `insufficient_credits` (the workspace's\ncredits for the period ran out, before or during the run), `invalid_output` (the agent wrote a\npath outside the project, a file over the limits or too many files), `internal_error`."
              },
              "summary": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1000,
                "description": "What the agent reported it did, once the run succeeded; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "started_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When an agent picked the run up; null while queued."
              },
              "finished_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the run reached a final status; null until then."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "AgentRunStatus": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Life of an agent run: `queued` → `running` → `succeeded` | `failed`. A `queued` or `running` run\nmay be cancelled (→ `canceled`). `succeeded`, `failed` and `canceled` are final. A project has at\nmost one run that is not final at a time."
          },
          "AgentRunTrigger": {
            "type": "string",
            "enum": [
              "project_created",
              "api"
            ],
            "description": "Why a run exists: the initial run queued by creating its project, or a run triggered through the API."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["project_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getAgentRun",
      "title": "Get an agent run",
      "description": "Get an agent run.\n\nReturns an agent run; poll it until its `status` is final, or await the `agent_run.*` events.\n\nRequires the scope projects:read. (GET /v1/projects/{project_id}/runs/{run_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "run_id": {
            "$ref": "#/$defs/AgentRunId",
            "description": "The agent run's identifier."
          }
        },
        "required": [
          "project_id",
          "run_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/AgentRun"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AgentRun": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "agent",
              "prompt",
              "trigger",
              "status",
              "credits_used",
              "error",
              "summary",
              "created_at",
              "started_at",
              "finished_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "agent": {
                "$ref": "#/$defs/Agent"
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The instruction given to the agent."
              },
              "trigger": {
                "$ref": "#/$defs/AgentRunTrigger"
              },
              "status": {
                "$ref": "#/$defs/AgentRunStatus"
              },
              "credits_used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits consumed so far; final once the run is."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `agent_error` (the agent or its model\nfailed), `timeout` (the run passed its time limit), `insufficient_credits` (the workspace's\ncredits for the period ran out, before or during the run), `invalid_output` (the agent wrote a\npath outside the project, a file over the limits or too many files), `internal_error`."
              },
              "summary": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1000,
                "description": "What the agent reported it did, once the run succeeded; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "started_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When an agent picked the run up; null while queued."
              },
              "finished_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the run reached a final status; null until then."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "AgentRunStatus": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Life of an agent run: `queued` → `running` → `succeeded` | `failed`. A `queued` or `running` run\nmay be cancelled (→ `canceled`). `succeeded`, `failed` and `canceled` are final. A project has at\nmost one run that is not final at a time."
          },
          "AgentRunTrigger": {
            "type": "string",
            "enum": [
              "project_created",
              "api"
            ],
            "description": "Why a run exists: the initial run queued by creating its project, or a run triggered through the API."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
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
      "description": "Cancel an agent run.\n\nCancels a `queued` or `running` run and answers with it, now `canceled`. Cancelling a run that is\nalready `canceled` answers it unchanged; a `succeeded` or `failed` run answers `409 conflict`.\n\nRequires the scope agents:run. (POST /v1/projects/{project_id}/runs/{run_id}/cancel)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "project_id": {
            "$ref": "#/$defs/ProjectId",
            "description": "The project's identifier."
          },
          "run_id": {
            "$ref": "#/$defs/AgentRunId",
            "description": "The agent run's identifier."
          }
        },
        "required": [
          "project_id",
          "run_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/AgentRun"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Agent": {
            "type": "string",
            "enum": [
              "coding-agent-1",
              "coding-agent-2",
              "coding-agent-3"
            ],
            "description": "The AI agent that builds a project. `coding-agent-1` is the default."
          },
          "AgentRun": {
            "type": "object",
            "required": [
              "id",
              "project_id",
              "agent",
              "prompt",
              "trigger",
              "status",
              "credits_used",
              "error",
              "summary",
              "created_at",
              "started_at",
              "finished_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/AgentRunId"
              },
              "project_id": {
                "$ref": "#/$defs/ProjectId"
              },
              "agent": {
                "$ref": "#/$defs/Agent"
              },
              "prompt": {
                "type": "string",
                "maxLength": 20000,
                "description": "The instruction given to the agent."
              },
              "trigger": {
                "$ref": "#/$defs/AgentRunTrigger"
              },
              "status": {
                "$ref": "#/$defs/AgentRunStatus"
              },
              "credits_used": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "maximum": 1000000000,
                "description": "Credits consumed so far; final once the run is."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string",
                        "maxLength": 64,
                        "pattern": "^[a-z_]+$",
                        "description": "Machine-readable reason, e.g. `agent_error`, `timeout`, `insufficient_credits`, `build_error`."
                      },
                      "message": {
                        "type": "string",
                        "maxLength": 1000
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  },
                  {
                    "type": "null"
                  }
                ],
                "description": "Set when `status` is `failed`; null otherwise. Codes: `agent_error` (the agent or its model\nfailed), `timeout` (the run passed its time limit), `insufficient_credits` (the workspace's\ncredits for the period ran out, before or during the run), `invalid_output` (the agent wrote a\npath outside the project, a file over the limits or too many files), `internal_error`."
              },
              "summary": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1000,
                "description": "What the agent reported it did, once the run succeeded; null otherwise."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "started_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When an agent picked the run up; null while queued."
              },
              "finished_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the run reached a final status; null until then."
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            }
          },
          "AgentRunId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^run_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an agent run: `run_` and 8–64 letters and digits."
          },
          "AgentRunStatus": {
            "type": "string",
            "enum": [
              "queued",
              "running",
              "succeeded",
              "failed",
              "canceled"
            ],
            "description": "Life of an agent run: `queued` → `running` → `succeeded` | `failed`. A `queued` or `running` run\nmay be cancelled (→ `canceled`). `succeeded`, `failed` and `canceled` are final. A project has at\nmost one run that is not final at a time."
          },
          "AgentRunTrigger": {
            "type": "string",
            "enum": [
              "project_created",
              "api"
            ],
            "description": "Why a run exists: the initial run queued by creating its project, or a run triggered through the API."
          },
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "ProjectId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^prj_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a project: `prj_` and 8–64 letters and digits."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["project_id","run_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "listWebhookEndpoints",
      "title": "List webhook endpoints",
      "description": "List webhook endpoints.\n\nLists the workspace's webhook endpoints, newest first.\n\nRequires the scope webhooks:read. (GET /v1/webhooks)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "limit": {
            "type": "integer",
            "format": "int32",
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
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/WebhookEndpoint"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookEndpoint": {
            "type": "object",
            "required": [
              "id",
              "url",
              "description",
              "enabled_events",
              "status",
              "disabled_reason",
              "created_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "url": {
                "$ref": "#/$defs/WebhookUrl",
                "pattern": "^https?://",
                "description": "Where deliveries are `POST`ed. It must be an absolute `https` URL whose host resolves to public\naddresses only: loopback, private, link-local (cloud metadata), unique-local, IPv4-mapped IPv6\nand unspecified addresses are refused (`400` naming `url`), at registration and again at every\ndelivery, which connects to the address it checked. A server run for local development with\n`WEBHOOK_ALLOW_PRIVATE_NETWORKS=true` also accepts those addresses and plain `http`."
              },
              "description": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "$ref": "#/$defs/EventType"
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
                "maxItems": 20,
                "description": "The event types delivered; `*` for all."
              },
              "status": {
                "$ref": "#/$defs/WebhookEndpointStatus"
              },
              "disabled_reason": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the service disabled the endpoint: it answered `410 Gone`, or every delivery to it failed\nfor 3 days. Null when it is enabled, or was disabled through the API."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A URL that receives signed event deliveries; see the `Event` schema for the signature scheme."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookEndpointStatus": {
            "type": "string",
            "enum": [
              "enabled",
              "disabled"
            ],
            "description": "`disabled` endpoints receive nothing until enabled again."
          },
          "WebhookUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "A webhook endpoint's URL: absolute, at most 2048 characters, no credentials."
          }
        }
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
      "description": "Create a webhook endpoint.\n\nRegisters an endpoint. The answer carries the signing `secret`, shown this once.\n\nRequires the scope webhooks:write. (POST /v1/webhooks)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          },
          "body": {
            "$ref": "#/$defs/CreateWebhookEndpointRequest",
            "description": "The request body, as the API takes it (JSON)."
          }
        },
        "required": [
          "body"
        ],
        "additionalProperties": false,
        "$defs": {
          "CreateWebhookEndpointRequest": {
            "type": "object",
            "required": [
              "url",
              "enabled_events"
            ],
            "properties": {
              "url": {
                "$ref": "#/$defs/WebhookUrl",
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
                      "$ref": "#/$defs/EventType"
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
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "WebhookUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "A webhook endpoint's URL: absolute, at most 2048 characters, no credentials."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/WebhookEndpointWithSecret"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookEndpointStatus": {
            "type": "string",
            "enum": [
              "enabled",
              "disabled"
            ],
            "description": "`disabled` endpoints receive nothing until enabled again."
          },
          "WebhookEndpointWithSecret": {
            "type": "object",
            "required": [
              "id",
              "url",
              "description",
              "enabled_events",
              "status",
              "disabled_reason",
              "created_at",
              "updated_at",
              "secret"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "url": {
                "$ref": "#/$defs/WebhookUrl",
                "pattern": "^https?://",
                "description": "Where deliveries are `POST`ed. It must be an absolute `https` URL whose host resolves to public\naddresses only: loopback, private, link-local (cloud metadata), unique-local, IPv4-mapped IPv6\nand unspecified addresses are refused (`400` naming `url`), at registration and again at every\ndelivery, which connects to the address it checked. A server run for local development with\n`WEBHOOK_ALLOW_PRIVATE_NETWORKS=true` also accepts those addresses and plain `http`."
              },
              "description": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "$ref": "#/$defs/EventType"
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
                "maxItems": 20,
                "description": "The event types delivered; `*` for all."
              },
              "status": {
                "$ref": "#/$defs/WebhookEndpointStatus"
              },
              "disabled_reason": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the service disabled the endpoint: it answered `410 Gone`, or every delivery to it failed\nfor 3 days. Null when it is enabled, or was disabled through the API."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "secret": {
                "type": "string",
                "maxLength": 100,
                "pattern": "^whsec_[A-Za-z0-9+/=]{32,88}$",
                "description": "The signing secret, `whsec_` and base64 of 32 random bytes."
              }
            },
            "description": "A newly created endpoint, with its signing secret: shown this once, store it safely."
          },
          "WebhookUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "A webhook endpoint's URL: absolute, at most 2048 characters, no credentials."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":[],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "getWebhookEndpoint",
      "title": "Get a webhook endpoint",
      "description": "Get a webhook endpoint.\n\nReturns a webhook endpoint, without its secret.\n\nRequires the scope webhooks:read. (GET /v1/webhooks/{webhook_endpoint_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/WebhookEndpoint"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookEndpoint": {
            "type": "object",
            "required": [
              "id",
              "url",
              "description",
              "enabled_events",
              "status",
              "disabled_reason",
              "created_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "url": {
                "$ref": "#/$defs/WebhookUrl",
                "pattern": "^https?://",
                "description": "Where deliveries are `POST`ed. It must be an absolute `https` URL whose host resolves to public\naddresses only: loopback, private, link-local (cloud metadata), unique-local, IPv4-mapped IPv6\nand unspecified addresses are refused (`400` naming `url`), at registration and again at every\ndelivery, which connects to the address it checked. A server run for local development with\n`WEBHOOK_ALLOW_PRIVATE_NETWORKS=true` also accepts those addresses and plain `http`."
              },
              "description": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "$ref": "#/$defs/EventType"
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
                "maxItems": 20,
                "description": "The event types delivered; `*` for all."
              },
              "status": {
                "$ref": "#/$defs/WebhookEndpointStatus"
              },
              "disabled_reason": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the service disabled the endpoint: it answered `410 Gone`, or every delivery to it failed\nfor 3 days. Null when it is enabled, or was disabled through the API."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A URL that receives signed event deliveries; see the `Event` schema for the signature scheme."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookEndpointStatus": {
            "type": "string",
            "enum": [
              "enabled",
              "disabled"
            ],
            "description": "`disabled` endpoints receive nothing until enabled again."
          },
          "WebhookUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "A webhook endpoint's URL: absolute, at most 2048 characters, no credentials."
          }
        }
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
      "description": "Update a webhook endpoint.\n\nChanges the URL, description, event types or status. Fields not sent keep their value. Setting\n`status` to `enabled` clears a `disabled_reason` and resumes the endpoint's pending deliveries.\n\nRequires the scope webhooks:write. (PATCH /v1/webhooks/{webhook_endpoint_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          },
          "body": {
            "$ref": "#/$defs/UpdateWebhookEndpointRequest",
            "description": "The request body, as the API takes it (JSON)."
          }
        },
        "required": [
          "webhook_endpoint_id",
          "body"
        ],
        "additionalProperties": false,
        "$defs": {
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "UpdateWebhookEndpointRequest": {
            "type": "object",
            "properties": {
              "url": {
                "$ref": "#/$defs/WebhookUrl",
                "pattern": "^https?://",
                "description": "See `WebhookEndpoint.url` for the addresses accepted."
              },
              "description": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "$ref": "#/$defs/EventType"
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
                "$ref": "#/$defs/WebhookEndpointStatus"
              }
            },
            "description": "Fields to change; absent fields keep their value.",
            "additionalProperties": false
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookEndpointStatus": {
            "type": "string",
            "enum": [
              "enabled",
              "disabled"
            ],
            "description": "`disabled` endpoints receive nothing until enabled again."
          },
          "WebhookUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "A webhook endpoint's URL: absolute, at most 2048 characters, no credentials."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/WebhookEndpoint"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookEndpoint": {
            "type": "object",
            "required": [
              "id",
              "url",
              "description",
              "enabled_events",
              "status",
              "disabled_reason",
              "created_at",
              "updated_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "url": {
                "$ref": "#/$defs/WebhookUrl",
                "pattern": "^https?://",
                "description": "Where deliveries are `POST`ed. It must be an absolute `https` URL whose host resolves to public\naddresses only: loopback, private, link-local (cloud metadata), unique-local, IPv4-mapped IPv6\nand unspecified addresses are refused (`400` naming `url`), at registration and again at every\ndelivery, which connects to the address it checked. A server run for local development with\n`WEBHOOK_ALLOW_PRIVATE_NETWORKS=true` also accepts those addresses and plain `http`."
              },
              "description": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "$ref": "#/$defs/EventType"
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
                "maxItems": 20,
                "description": "The event types delivered; `*` for all."
              },
              "status": {
                "$ref": "#/$defs/WebhookEndpointStatus"
              },
              "disabled_reason": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the service disabled the endpoint: it answered `410 Gone`, or every delivery to it failed\nfor 3 days. Null when it is enabled, or was disabled through the API."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              }
            },
            "description": "A URL that receives signed event deliveries; see the `Event` schema for the signature scheme."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookEndpointStatus": {
            "type": "string",
            "enum": [
              "enabled",
              "disabled"
            ],
            "description": "`disabled` endpoints receive nothing until enabled again."
          },
          "WebhookUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "A webhook endpoint's URL: absolute, at most 2048 characters, no credentials."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": true
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"json","body":"json"},
  },
  {
    tool: {
      "name": "deleteWebhookEndpoint",
      "title": "Delete a webhook endpoint",
      "description": "Delete a webhook endpoint.\n\nDeletes the endpoint; pending deliveries to it are dropped.\n\nRequires the scope webhooks:write. (DELETE /v1/webhooks/{webhook_endpoint_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
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
      "description": "List an endpoint's deliveries.\n\nLists the endpoint's deliveries, newest first.\n\nRequires the scope webhooks:read. (GET /v1/webhooks/{webhook_endpoint_id}/deliveries)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          },
          "limit": {
            "type": "integer",
            "format": "int32",
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
            "$ref": "#/$defs/WebhookDeliveryStatus",
            "description": "Only deliveries with this status."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "WebhookDeliveryStatus": {
            "type": "string",
            "enum": [
              "pending",
              "succeeded",
              "failed"
            ],
            "description": "One event sent to one endpoint, with its retries: `pending` (waiting for a first or further\nattempt) → `succeeded` (an attempt got a 2xx) | `failed` (every attempt failed)."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "type": "object",
            "required": [
              "data",
              "next_cursor"
            ],
            "properties": {
              "data": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/WebhookDelivery"
                },
                "maxItems": 100
              },
              "next_cursor": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 512,
                "pattern": "^[A-Za-z0-9_-]+$",
                "description": "Pass as `cursor` to get the following page; null on the last page."
              }
            },
            "description": "One page of a list, newest first."
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an event: `evt_` and 8–64 letters and digits."
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookDelivery": {
            "type": "object",
            "required": [
              "id",
              "webhook_endpoint_id",
              "event_id",
              "event_type",
              "status",
              "attempts",
              "response_status",
              "last_attempt_at",
              "next_attempt_at",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookDeliveryId"
              },
              "webhook_endpoint_id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "event_id": {
                "$ref": "#/$defs/EventId"
              },
              "event_type": {
                "$ref": "#/$defs/EventType"
              },
              "status": {
                "$ref": "#/$defs/WebhookDeliveryStatus"
              },
              "attempts": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 100,
                "description": "Attempts made so far."
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "HTTP status of the last attempt; null before the first, or when it got no response."
              },
              "last_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time"
              },
              "next_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the next attempt is due; null when none is planned."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "attempt_log": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/WebhookDeliveryAttempt"
                },
                "maxItems": 100,
                "description": "Every attempt, newest first. Only `getWebhookDelivery` answers it; lists leave it out."
              }
            }
          },
          "WebhookDeliveryAttempt": {
            "type": "object",
            "required": [
              "attempted_at",
              "duration_ms",
              "response_status",
              "response_body",
              "error"
            ],
            "properties": {
              "attempted_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "duration_ms": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 600000
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "The HTTP status the endpoint answered; null when it gave no answer."
              },
              "response_body": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1024,
                "description": "The start of the answer's body (at most 1,024 characters); null when there was none."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the attempt failed without an answer (timeout, connection refused, a refused address, a\nredirect, which is not followed); null when it got one."
              }
            },
            "description": "One attempt of a delivery: when, how long, and what the endpoint answered or why it could not."
          },
          "WebhookDeliveryId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook delivery: `dlv_` and 8–64 letters and digits."
          },
          "WebhookDeliveryStatus": {
            "type": "string",
            "enum": [
              "pending",
              "succeeded",
              "failed"
            ],
            "description": "One event sent to one endpoint, with its retries: `pending` (waiting for a first or further\nattempt) → `succeeded` (an attempt got a 2xx) | `failed` (every attempt failed)."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
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
      "description": "Get a delivery.\n\nReturns one delivery: its status and every attempt, with what the endpoint answered.\n\nRequires the scope webhooks:read. (GET /v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id})",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          },
          "delivery_id": {
            "$ref": "#/$defs/WebhookDeliveryId",
            "description": "The delivery's identifier."
          }
        },
        "required": [
          "webhook_endpoint_id",
          "delivery_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "WebhookDeliveryId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook delivery: `dlv_` and 8–64 letters and digits."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/WebhookDelivery"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an event: `evt_` and 8–64 letters and digits."
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookDelivery": {
            "type": "object",
            "required": [
              "id",
              "webhook_endpoint_id",
              "event_id",
              "event_type",
              "status",
              "attempts",
              "response_status",
              "last_attempt_at",
              "next_attempt_at",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookDeliveryId"
              },
              "webhook_endpoint_id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "event_id": {
                "$ref": "#/$defs/EventId"
              },
              "event_type": {
                "$ref": "#/$defs/EventType"
              },
              "status": {
                "$ref": "#/$defs/WebhookDeliveryStatus"
              },
              "attempts": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 100,
                "description": "Attempts made so far."
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "HTTP status of the last attempt; null before the first, or when it got no response."
              },
              "last_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time"
              },
              "next_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the next attempt is due; null when none is planned."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "attempt_log": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/WebhookDeliveryAttempt"
                },
                "maxItems": 100,
                "description": "Every attempt, newest first. Only `getWebhookDelivery` answers it; lists leave it out."
              }
            }
          },
          "WebhookDeliveryAttempt": {
            "type": "object",
            "required": [
              "attempted_at",
              "duration_ms",
              "response_status",
              "response_body",
              "error"
            ],
            "properties": {
              "attempted_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "duration_ms": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 600000
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "The HTTP status the endpoint answered; null when it gave no answer."
              },
              "response_body": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1024,
                "description": "The start of the answer's body (at most 1,024 characters); null when there was none."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the attempt failed without an answer (timeout, connection refused, a refused address, a\nredirect, which is not followed); null when it got one."
              }
            },
            "description": "One attempt of a delivery: when, how long, and what the endpoint answered or why it could not."
          },
          "WebhookDeliveryId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook delivery: `dlv_` and 8–64 letters and digits."
          },
          "WebhookDeliveryStatus": {
            "type": "string",
            "enum": [
              "pending",
              "succeeded",
              "failed"
            ],
            "description": "One event sent to one endpoint, with its retries: `pending` (waiting for a first or further\nattempt) → `succeeded` (an attempt got a 2xx) | `failed` (every attempt failed)."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
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
      "description": "Redeliver an event.\n\nSends the delivery's event again, as a new delivery with fresh attempts, and answers with it.\n\nRequires the scope webhooks:write. (POST /v1/webhooks/{webhook_endpoint_id}/deliveries/{delivery_id}/redeliver)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          },
          "delivery_id": {
            "$ref": "#/$defs/WebhookDeliveryId",
            "description": "The delivery's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          }
        },
        "required": [
          "webhook_endpoint_id",
          "delivery_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "WebhookDeliveryId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook delivery: `dlv_` and 8–64 letters and digits."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/WebhookDelivery"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an event: `evt_` and 8–64 letters and digits."
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookDelivery": {
            "type": "object",
            "required": [
              "id",
              "webhook_endpoint_id",
              "event_id",
              "event_type",
              "status",
              "attempts",
              "response_status",
              "last_attempt_at",
              "next_attempt_at",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookDeliveryId"
              },
              "webhook_endpoint_id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "event_id": {
                "$ref": "#/$defs/EventId"
              },
              "event_type": {
                "$ref": "#/$defs/EventType"
              },
              "status": {
                "$ref": "#/$defs/WebhookDeliveryStatus"
              },
              "attempts": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 100,
                "description": "Attempts made so far."
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "HTTP status of the last attempt; null before the first, or when it got no response."
              },
              "last_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time"
              },
              "next_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the next attempt is due; null when none is planned."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "attempt_log": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/WebhookDeliveryAttempt"
                },
                "maxItems": 100,
                "description": "Every attempt, newest first. Only `getWebhookDelivery` answers it; lists leave it out."
              }
            }
          },
          "WebhookDeliveryAttempt": {
            "type": "object",
            "required": [
              "attempted_at",
              "duration_ms",
              "response_status",
              "response_body",
              "error"
            ],
            "properties": {
              "attempted_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "duration_ms": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 600000
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "The HTTP status the endpoint answered; null when it gave no answer."
              },
              "response_body": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1024,
                "description": "The start of the answer's body (at most 1,024 characters); null when there was none."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the attempt failed without an answer (timeout, connection refused, a refused address, a\nredirect, which is not followed); null when it got one."
              }
            },
            "description": "One attempt of a delivery: when, how long, and what the endpoint answered or why it could not."
          },
          "WebhookDeliveryId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook delivery: `dlv_` and 8–64 letters and digits."
          },
          "WebhookDeliveryStatus": {
            "type": "string",
            "enum": [
              "pending",
              "succeeded",
              "failed"
            ],
            "description": "One event sent to one endpoint, with its retries: `pending` (waiting for a first or further\nattempt) → `succeeded` (an attempt got a 2xx) | `failed` (every attempt failed)."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["webhook_endpoint_id","delivery_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "rotateWebhookSecret",
      "title": "Rotate a webhook endpoint's secret",
      "description": "Rotate a webhook endpoint's secret.\n\nRolls the endpoint's signing secret: answers the endpoint with a new `secret`, shown this once.\nFor 24 hours deliveries carry signatures with both the new and the previous secret (several\nspace-separated signatures, as the `Event` documentation says), so receivers can switch without\nmissing a delivery.\n\nRequires the scope webhooks:write. (POST /v1/webhooks/{webhook_endpoint_id}/rotate-secret)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/WebhookEndpointWithSecret"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          },
          "WebhookEndpointStatus": {
            "type": "string",
            "enum": [
              "enabled",
              "disabled"
            ],
            "description": "`disabled` endpoints receive nothing until enabled again."
          },
          "WebhookEndpointWithSecret": {
            "type": "object",
            "required": [
              "id",
              "url",
              "description",
              "enabled_events",
              "status",
              "disabled_reason",
              "created_at",
              "updated_at",
              "secret"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "url": {
                "$ref": "#/$defs/WebhookUrl",
                "pattern": "^https?://",
                "description": "Where deliveries are `POST`ed. It must be an absolute `https` URL whose host resolves to public\naddresses only: loopback, private, link-local (cloud metadata), unique-local, IPv4-mapped IPv6\nand unspecified addresses are refused (`400` naming `url`), at registration and again at every\ndelivery, which connects to the address it checked. A server run for local development with\n`WEBHOOK_ALLOW_PRIVATE_NETWORKS=true` also accepts those addresses and plain `http`."
              },
              "description": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500
              },
              "enabled_events": {
                "type": "array",
                "items": {
                  "anyOf": [
                    {
                      "$ref": "#/$defs/EventType"
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
                "maxItems": 20,
                "description": "The event types delivered; `*` for all."
              },
              "status": {
                "$ref": "#/$defs/WebhookEndpointStatus"
              },
              "disabled_reason": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the service disabled the endpoint: it answered `410 Gone`, or every delivery to it failed\nfor 3 days. Null when it is enabled, or was disabled through the API."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "updated_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "secret": {
                "type": "string",
                "maxLength": 100,
                "pattern": "^whsec_[A-Za-z0-9+/=]{32,88}$",
                "description": "The signing secret, `whsec_` and base64 of 32 random bytes."
              }
            },
            "description": "A newly created endpoint, with its signing secret: shown this once, store it safely."
          },
          "WebhookUrl": {
            "type": "string",
            "maxLength": 2048,
            "format": "uri",
            "description": "A webhook endpoint's URL: absolute, at most 2048 characters, no credentials."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"json"},
  },
  {
    tool: {
      "name": "sendTestWebhookEvent",
      "title": "Send a test event",
      "description": "Send a test event.\n\nSends a `webhook.test` event to this endpoint (whatever its `enabled_events` and status) and\nanswers at once with the queued delivery.\n\nRequires the scope webhooks:write. (POST /v1/webhooks/{webhook_endpoint_id}/test)",
      "inputSchema": {
        "type": "object",
        "properties": {
          "webhook_endpoint_id": {
            "$ref": "#/$defs/WebhookEndpointId",
            "description": "The webhook endpoint's identifier."
          },
          "idempotency_key": {
            "type": "string",
            "pattern": "^[\\x21-\\x7E]+$",
            "minLength": 1,
            "maxLength": 255,
            "description": "Makes the call safe to retry: the same key within 24 hours replays the first answer. Without one, the call gets a key of its own (so a retry made without it runs again)."
          }
        },
        "required": [
          "webhook_endpoint_id"
        ],
        "additionalProperties": false,
        "$defs": {
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "outputSchema": {
        "type": "object",
        "anyOf": [
          {
            "$ref": "#/$defs/WebhookDelivery"
          },
          {
            "$ref": "#/$defs/Error"
          }
        ],
        "$defs": {
          "Error": {
            "type": "object",
            "required": [
              "error"
            ],
            "properties": {
              "error": {
                "$ref": "#/$defs/ErrorDetail"
              }
            },
            "description": "The one shape of every error response."
          },
          "ErrorCode": {
            "type": "string",
            "enum": [
              "invalid_request",
              "missing_api_key",
              "invalid_api_key",
              "expired_api_key",
              "insufficient_scope",
              "forbidden",
              "not_found",
              "method_not_allowed",
              "conflict",
              "idempotency_key_in_use",
              "payload_too_large",
              "unsupported_media_type",
              "range_not_satisfiable",
              "idempotency_key_reused",
              "key_rate_limited",
              "ip_rate_limited",
              "too_many_streams",
              "internal_error",
              "service_unavailable"
            ],
            "description": "Machine-readable error code. Stable: new codes may be added in a minor version, so treat an unknown\ncode as its HTTP status says."
          },
          "ErrorDetail": {
            "type": "object",
            "required": [
              "code",
              "message",
              "param",
              "request_id"
            ],
            "properties": {
              "code": {
                "$ref": "#/$defs/ErrorCode"
              },
              "message": {
                "type": "string",
                "maxLength": 1000,
                "description": "Human-readable explanation, for developers; do not match on it."
              },
              "param": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 200,
                "description": "The offending parameter, header or body field (dotted path for nested fields), or null."
              },
              "request_id": {
                "$ref": "#/$defs/RequestId",
                "description": "Equals the response's `X-Request-Id`."
              }
            }
          },
          "EventId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^evt_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of an event: `evt_` and 8–64 letters and digits."
          },
          "EventType": {
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
              "webhook.test"
            ],
            "description": "The kinds of event, named `<resource>.<what happened>`. New kinds may be added in a minor version:\nreceivers ignore kinds they do not know."
          },
          "RequestId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^req_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a request, as in the `X-Request-Id` header: `req_` and 8–64 letters and digits."
          },
          "Timestamp": {
            "type": "string",
            "maxLength": 40,
            "format": "date-time",
            "description": "A moment in time, RFC 3339 in UTC, e.g. `2026-11-22T13:15:30Z`."
          },
          "WebhookDelivery": {
            "type": "object",
            "required": [
              "id",
              "webhook_endpoint_id",
              "event_id",
              "event_type",
              "status",
              "attempts",
              "response_status",
              "last_attempt_at",
              "next_attempt_at",
              "created_at"
            ],
            "properties": {
              "id": {
                "$ref": "#/$defs/WebhookDeliveryId"
              },
              "webhook_endpoint_id": {
                "$ref": "#/$defs/WebhookEndpointId"
              },
              "event_id": {
                "$ref": "#/$defs/EventId"
              },
              "event_type": {
                "$ref": "#/$defs/EventType"
              },
              "status": {
                "$ref": "#/$defs/WebhookDeliveryStatus"
              },
              "attempts": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 100,
                "description": "Attempts made so far."
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "HTTP status of the last attempt; null before the first, or when it got no response."
              },
              "last_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time"
              },
              "next_attempt_at": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 40,
                "format": "date-time",
                "description": "When the next attempt is due; null when none is planned."
              },
              "created_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "attempt_log": {
                "type": "array",
                "items": {
                  "$ref": "#/$defs/WebhookDeliveryAttempt"
                },
                "maxItems": 100,
                "description": "Every attempt, newest first. Only `getWebhookDelivery` answers it; lists leave it out."
              }
            }
          },
          "WebhookDeliveryAttempt": {
            "type": "object",
            "required": [
              "attempted_at",
              "duration_ms",
              "response_status",
              "response_body",
              "error"
            ],
            "properties": {
              "attempted_at": {
                "$ref": "#/$defs/Timestamp"
              },
              "duration_ms": {
                "type": "integer",
                "format": "int32",
                "minimum": 0,
                "maximum": 600000
              },
              "response_status": {
                "anyOf": [
                  {
                    "type": "integer",
                    "format": "int32"
                  },
                  {
                    "type": "null"
                  }
                ],
                "minimum": 100,
                "maximum": 599,
                "description": "The HTTP status the endpoint answered; null when it gave no answer."
              },
              "response_body": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 1024,
                "description": "The start of the answer's body (at most 1,024 characters); null when there was none."
              },
              "error": {
                "anyOf": [
                  {
                    "type": "string"
                  },
                  {
                    "type": "null"
                  }
                ],
                "maxLength": 500,
                "description": "Why the attempt failed without an answer (timeout, connection refused, a refused address, a\nredirect, which is not followed); null when it got one."
              }
            },
            "description": "One attempt of a delivery: when, how long, and what the endpoint answered or why it could not."
          },
          "WebhookDeliveryId": {
            "type": "string",
            "maxLength": 68,
            "pattern": "^dlv_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook delivery: `dlv_` and 8–64 letters and digits."
          },
          "WebhookDeliveryStatus": {
            "type": "string",
            "enum": [
              "pending",
              "succeeded",
              "failed"
            ],
            "description": "One event sent to one endpoint, with its retries: `pending` (waiting for a first or further\nattempt) → `succeeded` (an attempt got a 2xx) | `failed` (every attempt failed)."
          },
          "WebhookEndpointId": {
            "type": "string",
            "maxLength": 67,
            "pattern": "^we_[0-9A-Za-z]{8,64}$",
            "description": "Identifier of a webhook endpoint: `we_` and 8–64 letters and digits."
          }
        }
      },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "idempotentHint": false
      }
    },
    call: {"path":["webhook_endpoint_id"],"query":[],"answer":"json"},
  },
];
