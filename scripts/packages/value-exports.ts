import { readFileSync } from 'node:fs';
import * as ts from 'typescript';

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/**
 * The names an emitted ES module exports at run time (its types are gone by then), read from
 * its syntax: an entry point re-exports by name, and `export *` or a default export, which
 * the generated entry files cannot list, fail the build instead of being missed.
 */
export function valueExportsOf(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.ES2022,
    false,
    ts.ScriptKind.JS,
  );
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (!clause) throw new Error(`${file}: export * cannot be listed; export by name`);
      if (ts.isNamespaceExport(clause)) names.push(clause.name.text);
      else names.push(...clause.elements.map((element) => element.name.text));
    } else if (ts.isExportAssignment(statement)) {
      throw new Error(`${file}: a default export cannot be listed; export by name`);
    } else if (isExported(statement)) {
      if (ts.isVariableStatement(statement))
        for (const declaration of statement.declarationList.declarations) {
          if (!ts.isIdentifier(declaration.name)) throw new Error(`${file}: export a name`);
          names.push(declaration.name.text);
        }
      else if (
        (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
        statement.name
      )
        names.push(statement.name.text);
    }
  }
  if (names.includes('default')) throw new Error(`${file}: a default export cannot be listed`);
  return [...new Set(names)].sort();
}
