package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Targets (top-level or delegated): the targets it signs and the roles it delegates to. */
public final class Targets extends Signed {
    public static final String TYPE = "targets";
    private final Map<String, TargetFile> targets;
    private final Delegations delegations;

    Targets(Map<String, Object> json) throws JsonException {
        super(json, TYPE);
        Map<String, TargetFile> targets = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : JsonValues.object(JsonValues.required(json, "targets", TYPE), "targets").entrySet()) {
            targets.put(entry.getKey(), TargetFile.read(entry.getKey(), entry.getValue()));
        }
        this.targets = Collections.unmodifiableMap(targets);
        Object delegations = json.get("delegations");
        this.delegations = delegations == null ? null : new Delegations(JsonValues.object(delegations, "delegations"));
    }

    @Override public String type() { return TYPE; }

    /** Target path → target. */
    public Map<String, TargetFile> targets() { return targets; }

    public Optional<Delegations> delegations() { return Optional.ofNullable(delegations); }

    /** {@code custom} of the role itself (a field Livery's own repositories do not set), if present. */
    public Optional<Object> custom() { return Optional.ofNullable(json().get("custom")); }

    /** Throws unless a threshold of the keys this role delegates {@code role} to signed {@code delegate}. */
    public void verifyDelegate(String role, Metadata<?> delegate, String what) throws RepositoryException {
        if (delegations == null) throw new RepositoryException("'" + what + "' is not delegated: the delegator has no delegations");
        DelegatedRole delegated = delegations.role(role)
                .orElseThrow(() -> new RepositoryException("the delegator does not delegate to '" + role + "'"));
        new KeyRing(delegations.keys(), delegated).verify(delegate, what);
    }
}
