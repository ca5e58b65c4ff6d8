//! The MCP messages this client sends and reads, typed: `initialize`,
//! `tools/list` and `tools/call`, shaped as the MCP specification's schema
//! has them (revision 2025-06-18, the first with `structuredContent`,
//! `resource_link` and `audio`; the later revisions this client speaks keep
//! these shapes, the earlier ones are subsets of them).
//!
//! A server's answer is read into these types whole, never poked at: what
//! a result carries is every kind of content block the specification
//! names, so a server that returns a file as an embedded `resource` block,
//! or its answer as `structuredContent`, is read for what it said. A block
//! of a type the specification does not name is kept as
//! [`ContentBlock::Other`] (a later revision may add one) and carries no
//! text; a block of a named type without the members that type requires
//! is a malformed answer, said so, never skipped in silence.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `initialize`'s parameters.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams<'a> {
    pub protocol_version: &'a str,
    pub capabilities: ClientCapabilities,
    pub client_info: PeerInfo<'a>,
}

/// What the client offers: `roots` only when the profile gives roots over
/// MCP (a server may behave otherwise when it is offered).
#[derive(Debug, Default, Serialize)]
pub struct ClientCapabilities {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roots: Option<RootsCapability>,
}

/// The `roots` capability: this client tells the server when they change.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RootsCapability {
    pub list_changed: bool,
}

/// Who the client is.
#[derive(Debug, Serialize)]
pub struct PeerInfo<'a> {
    pub name: &'a str,
    pub version: &'a str,
}

/// What of `initialize`'s result the client reads: the revision the
/// server chose (the rest, its capabilities and `serverInfo`, decides
/// nothing here).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    pub protocol_version: String,
}

/// `tools/list`'s parameters: the cursor of the page asked for.
#[derive(Debug, Serialize)]
pub struct ListToolsParams<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<&'a str>,
}

/// One page of `tools/list`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    pub tools: Vec<ListedTool>,
    /// The next page's cursor; none on the last page.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// A tool as `tools/list` names it (its description, annotations and
/// output schema decide nothing here).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedTool {
    pub name: String,
    pub input_schema: Value,
}

/// `tools/call`'s parameters.
#[derive(Debug, Serialize)]
pub struct CallToolParams<'a> {
    pub name: &'a str,
    pub arguments: &'a Map<String, Value>,
}

/// `tools/call`'s result.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// Required by the specification; a result without it is read as one
    /// with no blocks (an answer with nothing to read), not refused.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// The answer as a JSON value, for a tool that declares an output
    /// schema; read only where the profile says where to look
    /// (`result.structured`).
    #[serde(default)]
    pub structured_content: Option<Value>,
    /// Whether the tool failed; absent (or `null`) is `false`.
    #[serde(default)]
    pub is_error: Option<bool>,
}

/// One block of a result's `content`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ContentBlock {
    Text {
        text: String,
    },
    /// Base64 data.
    Image {
        data: String,
        mime_type: String,
    },
    /// Base64 data.
    Audio {
        data: String,
        mime_type: String,
    },
    /// A resource the client may read (`resources/read`); not read here.
    ResourceLink {
        uri: String,
        name: String,
        #[serde(default)]
        mime_type: Option<String>,
    },
    /// A resource carried in the answer itself.
    Resource {
        resource: ResourceContents,
    },
    /// A block type the specification does not name.
    #[serde(other)]
    Other,
}

/// An embedded resource: a URI and either text or base64 data.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
pub enum ResourceContents {
    Text {
        uri: String,
        #[serde(default)]
        mime_type: Option<String>,
        text: String,
    },
    Blob {
        uri: String,
        #[serde(default)]
        mime_type: Option<String>,
        blob: String,
    },
}

impl CallToolResult {
    /// Whether the server flagged the answer as a failure.
    pub fn is_error(&self) -> bool {
        self.is_error.unwrap_or(false)
    }

    /// The answer's text: every text block and the text of every embedded
    /// text resource, in order, joined with newlines. Images, audio, blobs
    /// and resource links carry none.
    pub fn text(&self) -> String {
        let texts = self.content.iter().filter_map(|block| match block {
            ContentBlock::Text { text } => Some(text.as_str()),
            ContentBlock::Resource {
                resource: ResourceContents::Text { text, .. },
            } => Some(text.as_str()),
            _ => None,
        });
        texts.collect::<Vec<_>>().join("\n")
    }

    /// The value at `pointer` (RFC 6901, `/files/0`) in
    /// `structuredContent`, as text: a string as it is, any other value as
    /// its JSON. `None` when there is no such value.
    pub fn structured_text(&self, pointer: &str) -> Option<String> {
        match self.structured_content.as_ref()?.pointer(pointer)? {
            Value::String(text) => Some(text.clone()),
            other => Some(other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn result(json: Value) -> CallToolResult {
        serde_json::from_value(json).unwrap()
    }

    /// Every block type of the specification is read; text comes from text
    /// blocks and embedded text resources, in order, and from nothing else.
    #[test]
    fn every_block_type_is_read_and_only_text_is_text() {
        let r = result(json!({
            "content": [
                {"type": "text", "text": "one"},
                {"type": "image", "data": "AAA=", "mimeType": "image/png"},
                {"type": "audio", "data": "AAA=", "mimeType": "audio/wav"},
                {"type": "resource_link", "uri": "file:///a", "name": "a"},
                {"type": "resource", "resource": {"uri": "file:///b", "mimeType": "text/plain", "text": "two"}},
                {"type": "resource", "resource": {"uri": "file:///c", "blob": "AAA="}},
                {"type": "hologram", "depth": 3},
            ],
            "isError": null,
        }));
        assert_eq!(r.content.len(), 7);
        assert_eq!(r.content[6], ContentBlock::Other);
        assert_eq!(r.text(), "one\ntwo");
        assert!(!r.is_error());
        assert!(result(json!({"content": [], "isError": true})).is_error());
    }

    /// A named block without what its type requires is malformed.
    #[test]
    fn a_block_missing_its_members_is_refused() {
        for block in [
            json!({"type": "text"}),
            json!({"type": "resource", "resource": {"uri": "file:///x"}}),
            json!({"type": "image", "data": "AAA="}),
        ] {
            let answer = json!({"content": [block]});
            assert!(serde_json::from_value::<CallToolResult>(answer).is_err());
        }
    }

    #[test]
    fn structured_content_is_read_at_a_pointer() {
        let r = result(json!({
            "content": [{"type": "text", "text": "{}"}],
            "structuredContent": {"report": "path: /a", "files": ["x", "y"]},
        }));
        assert_eq!(r.structured_text("/report").as_deref(), Some("path: /a"));
        assert_eq!(
            r.structured_text("/files").as_deref(),
            Some("[\"x\",\"y\"]")
        );
        assert_eq!(r.structured_text("/files/1").as_deref(), Some("y"));
        assert_eq!(r.structured_text("/missing"), None);
        assert_eq!(result(json!({"content": []})).structured_text(""), None);
    }

    /// What the client sends, in the specification's names.
    #[test]
    fn requests_are_spelled_as_the_specification_has_them() {
        let params = InitializeParams {
            protocol_version: "2025-06-18",
            capabilities: ClientCapabilities {
                roots: Some(RootsCapability { list_changed: true }),
            },
            client_info: PeerInfo {
                name: "toolpath",
                version: "1",
            },
        };
        assert_eq!(
            serde_json::to_value(&params).unwrap(),
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {"roots": {"listChanged": true}},
                "clientInfo": {"name": "toolpath", "version": "1"},
            })
        );
        let bare = ClientCapabilities::default();
        assert_eq!(serde_json::to_value(&bare).unwrap(), json!({}));
        let first = ListToolsParams { cursor: None };
        assert_eq!(serde_json::to_value(&first).unwrap(), json!({}));
    }
}
