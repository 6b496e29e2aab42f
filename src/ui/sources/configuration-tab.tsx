/**
 * Configuration: edit the props and update the source in place (its dc_ id stays); the code,
 * version and lock. A component with additionalProps shows them too: the form asks for the
 * source's full props (`POST /v1/components/props` with its dc_ id, which starts from its values).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Source, SourceParams } from "../../client/types.js";
import { api } from "../api.js";
import { ErrorBox, Loading } from "../components/status.js";
import { isConfigurable } from "../props/prop-values.js";
import { PropsForm } from "../props/props-form.js";

export function ConfigurationTab({ source }: { source: Source }) {
  const queryClient = useQueryClient();
  const component = useQuery({
    queryKey: ["component", source.component_id],
    queryFn: () => api.getComponent(source.component_id),
  });
  // A mutation, so that a session ended meanwhile sends the page to sign-in (main.tsx).
  const update = useMutation({ mutationFn: (input: SourceParams) => api.updateSource(source.id, input) });
  const [saved, setSaved] = useState(false);
  if (component.isPending) return <Loading what="the component" />;
  if (component.error) return <ErrorBox error={component.error} />;
  const props = component.data.configurable_props;
  const lock = Object.entries(component.data.lock ?? {});
  return (
    <div className="configuration">
      <PropsForm
        key={source.updated_at}
        componentId={source.id}
        props={props}
        hasAdditionalProps={component.data.has_additional_props === true}
        configured={source.configured_props}
        submitLabel="Update"
        onSubmit={async (configured, _form, dynamicPropsId, shown) => {
          setSaved(false);
          // An input emptied by the user clears that prop (null); left out, the API keeps it.
          const cleared = shown
            .filter(
              (prop) =>
                isConfigurable(prop) &&
                !prop.secret &&
                source.configured_props[prop.name] !== undefined &&
                !(prop.name in configured),
            )
            .map((prop) => [prop.name, null] as const);
          const updated = await update.mutateAsync({
            configured_props: { ...Object.fromEntries(cleared), ...configured },
            ...(dynamicPropsId ? { dynamic_props_id: dynamicPropsId } : {}),
          });
          queryClient.setQueryData(["source", source.id], updated);
          setSaved(true);
        }}
      />
      {saved && (
        <p className="notice ok" role="status">
          Updated. The source keeps its id, {source.id}.
        </p>
      )}
      <h2>Component</h2>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{component.data.name}</dd>
        <dt>Key and version</dt>
        <dd className="mono">
          {component.data.key ?? "—"}
          {component.data.version ? `@${component.data.version}` : ""}
        </dd>
        <dt>Saved component</dt>
        <dd className="mono">{component.data.id}</dd>
      </dl>
      <h3>Package lock</h3>
      {lock.length === 0 ? (
        <p className="muted">No npm packages.</p>
      ) : (
        <ul className="mono small">
          {lock.map(([name, version]) => (
            <li key={name}>
              {name}@{version}
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>Code</summary>
        <textarea
          className="code"
          readOnly
          rows={18}
          aria-label="Component code"
          value={component.data.code}
        />
      </details>
    </div>
  );
}
