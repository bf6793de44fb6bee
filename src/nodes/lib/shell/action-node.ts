import type { NodeAPI } from "node-red";
import { MoreLoginInputError, describeValue, type ApiName } from "../../../client";
import { forAction, selectField, selected, typedFields, type NodeDeclaration } from "../declarations/declaration";
import { registerMessageNode, registerOperationNode, type MessageContext, type NodeLifecycle, type OperationContext, type OperationResult } from "./operation-node";
import { evaluateProperty } from "./properties";

export interface ActionInputs {
  action: string;
  /** The node's `api` select, for nodes that have one. */
  api: ApiName;
  /** This action's fields for this message (read from msg, context, env or JSONata); blank fields are absent. */
  fields: Record<string, unknown>;
}

export type ActionContext = OperationContext & ActionInputs;
export type ActionRun = (context: ActionContext) => Promise<OperationResult>;

/** An action of a node without a config node (the browser node). */
export type MessageActionContext = MessageContext & ActionInputs;
export type MessageActionRun = (context: MessageActionContext) => Promise<OperationResult>;

/**
 * Registers a node with an `action` select: the shared input wrapper reads the action, the API and
 * that action's fields, and runs the action's own code. A saved action the node does not know (a
 * hand-written flow, say) is bad input, not silently another action.
 */
export function registerActionNode<A extends string>(RED: NodeAPI, declaration: NodeDeclaration, actions: Record<A, ActionRun>): void {
  const credentials = declaration.credentials?.map((field) => field.name);
  registerOperationNode(RED, declaration.type, { label: declaration.label, run: actionRunner(RED, declaration, actions), credentials });
}

/** registerActionNode for a node that needs no config node. */
export function registerMessageActionNode<A extends string>(RED: NodeAPI, declaration: NodeDeclaration, actions: Record<A, MessageActionRun>, lifecycle: NodeLifecycle = {}): void {
  registerMessageNode(RED, declaration.type, { label: declaration.label, run: actionRunner(RED, declaration, actions), ...lifecycle });
}

function actionRunner<C extends MessageContext, A extends string>(
  RED: NodeAPI,
  declaration: NodeDeclaration,
  actions: Record<A, (context: C & ActionInputs) => Promise<OperationResult>>,
): (context: C) => Promise<OperationResult> {
  const actionField = selectField(declaration, "action");
  const apiField = selectField(declaration, "api");
  const names = Object.keys(actions);
  return async (context) => {
    const { node, def, msg } = context;
    const saved = def.action === undefined || def.action === "" ? actionField?.default : def.action;
    if (typeof saved !== "string" || !Object.hasOwn(actions, saved)) {
      throw new MoreLoginInputError(`unknown action ${describeValue(saved)}: use one of ${names.join(", ")}`);
    }
    const action = saved as A;
    const api: ApiName = apiField && selected(def, apiField) === "open" ? "open" : "local";
    const fields: Record<string, unknown> = {};
    for (const field of typedFields(declaration)) {
      if (field.inBody === false || !forAction(field, action)) continue;
      const value = await evaluateProperty(RED, node, msg, def[field.name], def[`${field.name}Type`] ?? field.defaultType, field.name);
      if (value !== undefined && value !== null) fields[field.name] = value;
    }
    return actions[action]({ ...context, action, api, fields });
  };
}
