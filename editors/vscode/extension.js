// The shinpan extension: highlighting comes from syntaxes/shinpan.tmLanguage.json (declared in
// package.json); this file starts the language server, `shinpan lsp`, over stdio for every
// .rules file. The program is the `shinpan.path` setting (default: `shinpan` on PATH).
'use strict';

const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

/** @type {LanguageClient | undefined} */
let client;

function serverCommand() {
  const configured = vscode.workspace.getConfiguration('shinpan').get('path');
  return typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : 'shinpan';
}

async function startClient() {
  const command = serverCommand();
  client = new LanguageClient(
    'shinpan',
    'shinpan language server',
    { command, args: ['lsp'], transport: TransportKind.stdio },
    { documentSelector: [{ language: 'shinpan' }] }
  );
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    vscode.window.showErrorMessage(
      `shinpan: could not start \`${command} lsp\` (${error.message || error}). ` +
        'Install shinpan (cargo install --path .) or set `shinpan.path` to the program.'
    );
  }
}

async function restartClient() {
  if (client) {
    const running = client;
    client = undefined;
    await running.stop();
  }
  await startClient();
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('shinpan.restartServer', restartClient),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('shinpan.path')) restartClient();
    })
  );
  await startClient();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
