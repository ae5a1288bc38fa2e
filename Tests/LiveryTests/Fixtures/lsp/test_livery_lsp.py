"""`livery lsp` driven by a real LSP client: pytest-lsp (pygls and lsprotocol) over stdio.

Run by LanguageServerClientTests with LIVERY_BIN (the livery binary) and LIVERY_WORKSPACE (a temporary copy of
sample tenants). The client announces Neovim 0.11's capabilities, and pytest-lsp checks every answer against them
(the test runs with its specification warnings as errors).
"""
import asyncio
import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

WORKSPACE = pathlib.Path(os.environ["LIVERY_WORKSPACE"])
TENANT = WORKSPACE / "urbannest" / "tenant.yaml"
URI = TENANT.as_uri()


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[os.environ["LIVERY_BIN"], "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim"), root_uri=WORKSPACE.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=WORKSPACE.as_uri(), name="Tenants")]))
    yield
    await lsp_client.shutdown_session()


def utf16(text: str) -> int:
    """The length of `text` in UTF-16 code units, as LSP counts characters."""
    return len(text.encode("utf-16-le")) // 2


def apply(text: str, edits: list) -> str:
    """Applies LSP text edits (UTF-16 positions) to `text`, from the last to the first."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position):
        line = lines[position.line]
        units, index = 0, 0
        while index < len(line) and units < position.character:
            units += utf16(line[index])
            index += 1
        return offsets[position.line] + index

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


async def change(client, text, version):
    client.diagnostics.pop(URI, None)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))
    return await published(client)


async def published(client):
    """The diagnostics next published for the tenant manifest (the server publishes an open document's after
    every change, even when there are none; the caller removed the previous ones)."""
    for _ in range(1200):
        if URI in client.diagnostics:
            return client.diagnostics[URI]
        await asyncio.sleep(0.05)
    raise AssertionError("no diagnostics published for " + URI + " within 60 s")


def errors(diagnostics):
    return [d for d in diagnostics if d.severity == types.DiagnosticSeverity.Error]


@pytest.mark.asyncio
async def test_edit_diagnose_hover_define_complete_fix(client: LanguageClient):
    original = TENANT.read_text(encoding="utf-8")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="yaml", version=1, text=original)))
    assert errors(await published(client)) == [], "the sample tenant validates clean"

    # An error after a multi-byte character (an emoji: one scalar, two UTF-16 code units).
    home = '    - {id: home, icon: house, label: nav.home, color: "{color.component.tab-bar.active}"}'
    assert home in original
    broken_line = home.replace("label: nav.home, color:", 'label: nav.home, "\U0001F3E0": 1, colour:')
    broken = original.replace(home, broken_line)
    line = broken.split("\n").index(broken_line)
    diagnostics = await change(client, broken, 2)
    unknown = [d for d in diagnostics if d.code == "structure.unknown-key" and "colour" in d.message]
    assert len(unknown) == 1, diagnostics
    found = unknown[0]
    start = utf16(broken_line[:broken_line.index("colour")])
    assert (found.range.start.line, found.range.start.character) == (line, start)
    assert (found.range.end.line, found.range.end.character) == (line, start + len("colour"))
    assert found.severity == types.DiagnosticSeverity.Error
    assert found.code_description.href.endswith("rules.md#structureunknown-key"), found.code_description.href

    # Hover on the finding: the rule's rationale.
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=found.range.start))
    assert "structure.unknown-key" in hover.contents.value

    # Hover on a token reference: its value in every mode.
    reference = "{color.component.tab-bar.active}"
    at = types.Position(line=line, character=utf16(broken_line[:broken_line.index(reference)]) + 3)
    hover = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=at))
    rows = dict(row.strip("| ").split(" | ") for row in hover.contents.value.split("\n") if row.startswith("| ") and "`" in row)
    assert set(rows) == {"default", "compact", "dark", "dark+compact"}, hover.contents.value
    assert rows["default"].startswith("`#") and rows["dark"].startswith("`#") and rows["default"] != rows["dark"], rows

    # Hover on a message key: its text in every locale.
    key_at = types.Position(line=line, character=utf16(broken_line[:broken_line.index("nav.home")]) + 2)
    hover = await client.text_document_hover_async(types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=key_at))
    assert "| en | Home" in hover.contents.value and "| hi | होम" in hover.contents.value, hover.contents.value

    # Go to definition: the message key's entry in each locale file, and the token's definition.
    definitions = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=key_at))
    files = sorted(pathlib.Path(d.uri.removeprefix("file://")).name for d in definitions)
    assert files == ["en.yaml", "hi.yaml"], definitions
    for d in definitions:
        text = pathlib.Path(d.uri.removeprefix("file://")).read_text(encoding="utf-8").split("\n")[d.range.start.line]
        assert text.strip().startswith("home:"), text
    definitions = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=at))
    assert definitions and all(d.uri.endswith(".json") for d in definitions), definitions
    token_line = pathlib.Path(definitions[0].uri.removeprefix("file://")).read_text(encoding="utf-8").split("\n")[definitions[0].range.start.line]
    assert '"active"' in token_line, token_line

    # Completion of a token reference inside {…}.
    typed = types.Position(line=line, character=utf16(broken_line[:broken_line.index(reference)]) + len("{color.comp"))
    completions = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), position=typed))
    items = completions.items if hasattr(completions, "items") else completions
    labels = [item.label for item in items]
    assert "color.component.tab-bar.active" in labels, labels[:20]
    assert all(label.startswith("color.comp") for label in labels)

    # The quick fix the rule declares ("did you mean 'color'?"), applied as the editor would, clears the finding.
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=URI), range=found.range,
        context=types.CodeActionContext(diagnostics=[found])))
    fix = [a for a in actions if a.title == "Rename 'colour' to 'color'"]
    assert len(fix) == 1, [a.title for a in actions]
    fixed = apply(broken, fix[0].edit.changes[URI])
    assert fixed == broken.replace("colour:", "color:")
    diagnostics = await change(client, fixed, 3)
    assert not [d for d in diagnostics if "colour" in d.message], diagnostics

    # Back to the file as it was: no errors at all.
    diagnostics = await change(client, original, 4)
    assert errors(diagnostics) == [], diagnostics


async def published_for(client, uri, predicate=lambda diagnostics: True):
    """The diagnostics next published for `uri` that satisfy `predicate`."""
    for _ in range(1200):
        if uri in client.diagnostics and predicate(client.diagnostics[uri]):
            return client.diagnostics[uri]
        await asyncio.sleep(0.05)
    raise AssertionError("no matching diagnostics published for " + uri + " within 60 s: " + repr(client.diagnostics.get(uri))[:300])


@pytest.mark.asyncio
async def test_never_saved_new_locale_bundle_is_checked_until_closed(client: LanguageClient):
    """A locale bundle the editor creates and never saves is part of the tenant while it is open."""
    bundle = WORKSPACE / "urbannest" / "locales" / "fr.yaml"
    assert not bundle.exists()
    uri = bundle.as_uri()
    # French added to the tenant's supported locales (unsaved): its bundle is missing.
    with_french = TENANT.read_text(encoding="utf-8").replace("supported: [en, hi]", "supported: [en, hi, fr]")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="yaml", version=1, text=with_french)))
    assert any(d.code == "references.locale-bundle" for d in await published(client))
    client.diagnostics.pop(URI, None)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text="nav:\n  home: Accueil\n")))
    diagnostics = await published_for(client, uri)
    missing = [d for d in diagnostics if str(d.code).startswith("localization.") and "nav.bookings" in d.message]
    assert missing, diagnostics
    assert not any(d.code == "references.locale-bundle" for d in await published(client)), "the tenant has its bundle"
    client.diagnostics.pop(URI, None)
    # Closed without saving: the file is gone again, and its findings are cleared.
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    assert len(await published_for(client, uri, lambda diagnostics: len(diagnostics) == 0)) == 0
    assert any(d.code == "references.locale-bundle" for d in await published(client)), "the bundle is gone again"
    assert not bundle.exists()


@pytest.mark.asyncio
async def test_cancelled_request_is_answered_request_cancelled(client: LanguageClient):
    """`$/cancelRequest` for a request still unanswered: the answer is error -32800 (RequestCancelled), and the
    server goes on answering. The hover follows a change, so the server is busy checking the tenant when the
    cancellation (written right after the hover) arrives; it reads it while it works."""
    original = TENANT.read_text(encoding="utf-8")
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=URI, language_id="yaml", version=1, text=original)))
    await published(client)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=original + "\n")]))
    params = types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(line=0, character=0))
    future = client.protocol.send_request(types.TEXT_DOCUMENT_HOVER, params, msg_id="hover-to-cancel")
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="hover-to-cancel"))
    with pytest.raises(JsonRpcRequestCancelled) as raised:
        await asyncio.wrap_future(future)
    assert raised.value.code == -32800, repr(raised.value)
    hover = await client.text_document_hover_async(params)
    assert hover is None or hover.contents is not None
