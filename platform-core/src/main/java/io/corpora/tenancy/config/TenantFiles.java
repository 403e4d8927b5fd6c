package io.corpora.tenancy.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.controlplane.TenantDefinition;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads a {@code tenants-config} directory: one tenant per {@code <id>.yaml}, {@code <id>.yml} or {@code <id>.json}
 * (the schema file itself is skipped). Files that fail are reported with their problems; the others load.
 */
public final class TenantFiles {

    private final TenantDefinitionValidator validator;
    private final DefinitionCheck check;

    public TenantFiles(TenantDefinitionValidator validator) {
        this(validator, DefinitionCheck.NONE);
    }

    /** {@code check} runs on each definition the schema accepts; a file it finds problems in fails like a schema-invalid one. */
    public TenantFiles(TenantDefinitionValidator validator, DefinitionCheck check) {
        this.validator = validator;
        this.check = check;
    }

    /** What a directory declares. */
    public record Loaded(Path directory, Map<String, LoadedTenant> tenants, List<TenantFileProblem> problems, List<String> invalidIds) {
        public Loaded {
            tenants = Map.copyOf(tenants);
            problems = List.copyOf(problems);
            invalidIds = List.copyOf(invalidIds);
        }
    }

    /**
     * One valid tenant file.
     *
     * @param declaresState whether the file sets {@code state} (sync leaves the stored state alone otherwise)
     */
    public record LoadedTenant(String file, TenantDefinition definition, boolean declaresState) {}

    public Loaded read(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new IllegalArgumentException("tenants directory " + directory + " does not exist or is not a directory");
        }
        List<Path> files;
        try (Stream<Path> listing = Files.list(directory)) {
            files = listing.filter(Files::isRegularFile).filter(TenantFiles::isTenantFile).sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot list tenants directory " + directory + ": " + e.getMessage(), e);
        }
        Map<String, LoadedTenant> tenants = new LinkedHashMap<>();
        List<TenantFileProblem> problems = new ArrayList<>();
        List<String> invalidIds = new ArrayList<>();
        for (Path file : files) {
            String name = file.getFileName().toString();
            String expectedId = baseName(name);
            List<TenantFileProblem> fileProblems = new ArrayList<>();
            JsonNode document = parse(file, fileProblems);
            if (document != null) {
                fileProblems.addAll(validator.validate(name, document));
                JsonNode id = document.path("id");
                if (id.isTextual() && !id.asText().equals(expectedId)) {
                    fileProblems.add(new TenantFileProblem(name, "/id",
                            "id '" + id.asText() + "' must equal the file name without extension ('" + expectedId + "')"));
                }
                LoadedTenant earlier = tenants.get(expectedId);
                if (earlier != null) {
                    fileProblems.add(new TenantFileProblem(name, "/id", "tenant '" + expectedId + "' is already declared in " + earlier.file()));
                }
            }
            TenantDefinition definition = fileProblems.isEmpty() ? TenantDefinitionCodec.fromJson(document) : null;
            if (definition != null) {
                fileProblems.addAll(check.problems(name, definition));
            }
            if (fileProblems.isEmpty()) {
                tenants.put(expectedId, new LoadedTenant(name, definition, TenantDefinitionCodec.declaresState(document)));
            } else {
                problems.addAll(fileProblems);
                invalidIds.add(expectedId);
            }
        }
        return new Loaded(directory, tenants, problems, invalidIds);
    }

    /**
     * The directory the class path carries as {@code tenants-config/} (the WAR's packaged defaults), found through
     * the schema file beside the tenant files.
     */
    public static Path packagedDirectory(ClassLoader loader) {
        URL schema = loader.getResource(TenantDefinitionValidator.SCHEMA_RESOURCE);
        if (schema == null) {
            throw new IllegalStateException(TenantDefinitionValidator.SCHEMA_RESOURCE + " is missing from the class path");
        }
        try {
            URI uri = schema.toURI();
            if ("file".equals(uri.getScheme())) {
                return Path.of(uri).getParent();
            }
            if ("jar".equals(uri.getScheme())) {
                FileSystem zip;
                try {
                    zip = FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    zip = FileSystems.getFileSystem(uri);
                }
                return zip.provider().getPath(uri).getParent();
            }
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("cannot open the packaged tenants directory at " + schema + ": " + e.getMessage(), e);
        }
        throw new IllegalStateException("the packaged tenants directory at " + schema
                + " cannot be listed; set corpora.tenants.dir to a tenants-config directory");
    }

    private static JsonNode parse(Path file, List<TenantFileProblem> problems) {
        String name = file.getFileName().toString();
        ObjectMapper mapper = name.toLowerCase(Locale.ROOT).endsWith(".json") ? Json.MAPPER : Json.YAML;
        try {
            JsonNode document = mapper.readTree(file.toFile());
            if (document == null || document.isMissingNode() || document.isNull()) {
                problems.add(new TenantFileProblem(name, "", "the file is empty"));
                return null;
            }
            return document;
        } catch (JsonProcessingException e) {
            problems.add(new TenantFileProblem(name, "", "not valid " + (mapper == Json.MAPPER ? "JSON" : "YAML") + JsonErrorLocation.of(e)
                    + ": " + e.getOriginalMessage()));
        } catch (IOException e) {
            problems.add(new TenantFileProblem(name, "", "cannot read the file: " + e.getMessage()));
        }
        return null;
    }

    private static boolean isTenantFile(Path path) {
        String name = path.getFileName().toString();
        String lower = name.toLowerCase(Locale.ROOT);
        return !name.equals(TenantDefinitionValidator.SCHEMA_FILE_NAME) && !name.startsWith(".")
                && (lower.endsWith(".yaml") || lower.endsWith(".yml") || lower.endsWith(".json"));
    }

    private static String baseName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? fileName : fileName.substring(0, dot);
    }
}
