package io.corpora.filter.audience;

import io.corpora.spi.filter.Actor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Audience templates such as {@code role:{roles}} expanded from the actor: {@code {sub}} and {@code {tenant}} give
 * one value, {@code {roles}} and {@code {groups}} one value per element (none when the actor has none).
 */
final class AudienceTemplates {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z]+)}");
    static final Set<String> PLACEHOLDERS = Set.of("sub", "tenant", "roles", "groups");

    private final List<String> templates;

    AudienceTemplates(List<String> templates) {
        if (templates.isEmpty()) {
            throw new IllegalArgumentException("at least one audience template is required");
        }
        for (String template : templates) {
            Matcher m = PLACEHOLDER.matcher(template);
            int placeholders = 0;
            while (m.find()) {
                placeholders++;
                if (!PLACEHOLDERS.contains(m.group(1))) {
                    throw new IllegalArgumentException("unknown placeholder {" + m.group(1) + "} in audience template '" + template
                            + "'; known: " + PLACEHOLDERS);
                }
            }
            if (placeholders > 1) {
                throw new IllegalArgumentException("audience template '" + template + "' has more than one placeholder");
            }
        }
        this.templates = List.copyOf(templates);
    }

    /** Every audience value the actor holds, in template order, without duplicates. */
    List<String> expand(Actor actor) {
        Set<String> values = new LinkedHashSet<>();
        for (String template : templates) {
            Matcher m = PLACEHOLDER.matcher(template);
            if (!m.find()) {
                values.add(template);
                continue;
            }
            for (String value : valuesOf(m.group(1), actor)) {
                values.add(template.substring(0, m.start()) + value + template.substring(m.end()));
            }
        }
        return new ArrayList<>(values);
    }

    private static Collection<String> valuesOf(String placeholder, Actor actor) {
        return switch (placeholder) {
            case "sub" -> List.of(actor.subject());
            case "tenant" -> List.of(actor.tenant());
            case "roles" -> actor.roles().stream().sorted().toList();
            case "groups" -> actor.groups().stream().sorted().toList();
            default -> throw new IllegalStateException(placeholder);
        };
    }
}
