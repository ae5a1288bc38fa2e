package com.livery.client.tuf;

import com.livery.client.json.JsonException;
import com.livery.client.json.JsonValues;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The {@code delegations} of a targets role: the keys it trusts and its delegated roles, in search order. */
public final class Delegations {
    private static final Set<String> TOP_LEVEL = Set.of("root", "timestamp", "snapshot", "targets");
    private final Map<String, Key> keys;
    private final List<DelegatedRole> roles;

    Delegations(Map<String, Object> json) throws JsonException {
        if (json.containsKey("succinct_roles")) {
            // TAP 15's hash-bin shorthand: Livery's repositories do not use it, and it is refused rather than misread.
            throw new JsonException("succinct hash-bin delegations (succinct_roles) are not supported by this client");
        }
        keys = Root.readKeys(JsonValues.required(json, "keys", "delegations"), "delegation keys");
        List<DelegatedRole> roles = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Object item : JsonValues.array(JsonValues.required(json, "roles", "delegations"), "delegations roles")) {
            DelegatedRole role = DelegatedRole.read(item);
            if (!names.add(role.name())) throw new JsonException("delegated role '" + role.name() + "' is listed twice");
            if (TOP_LEVEL.contains(role.name())) throw new JsonException("a delegated role may not be named '" + role.name() + "'");
            roles.add(role);
        }
        this.roles = Collections.unmodifiableList(roles);
    }

    public Map<String, Key> keys() { return keys; }

    /** The delegated roles in the order they are listed (the order a target search tries them). */
    public List<DelegatedRole> roles() { return roles; }

    public Optional<DelegatedRole> role(String name) {
        return roles.stream().filter(r -> r.name().equals(name)).findFirst();
    }
}
