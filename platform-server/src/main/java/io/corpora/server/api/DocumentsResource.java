package io.corpora.server.api;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.Tenant;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestRequest;
import io.corpora.ingest.UrlFetcher;
import io.corpora.server.Roles;
import io.corpora.access.TenantView;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.dataplane.JobRunner;
import io.corpora.server.dataplane.UrlIngest;
import io.corpora.server.api.model.ChunkView;
import io.corpora.server.api.model.DocumentChunks;
import io.corpora.server.api.model.DocumentPage;
import io.corpora.server.api.model.DocumentView;
import io.corpora.server.api.model.IngestOutcome;
import io.corpora.server.api.model.Job;
import io.corpora.server.rest.DataPlaneExceptionMappers;
import io.corpora.server.rest.ProblemException;
import io.corpora.server.security.CallerScope;
import io.corpora.spi.Chunk;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Documents of a tenant: ingest (JSON, batch, multipart upload), list, read, chunks, delete; every route through the
 * request's {@link TenantView}.
 *
 * <p>A document is addressed either by one path segment, {@code documents/{id}}, for ids a servlet container accepts
 * there (Servlet 6 refuses an encoded {@code /}, {@code .}, {@code \} or {@code #} in a path, and resolves {@code .}
 * and {@code ..} segments), or by the {@code id} query parameter, {@code document?id=…}, which carries any id: the
 * two never overlap, so {@code documents/x/chunks} always means the chunks of {@code x}.
 */
@Path("/api/v1/tenants/{tenant}")
@RequestScoped
@Tag(name = "documents")
@SecurityRequirement(name = "jwt")
public class DocumentsResource {

    public static final int MAX_BATCH = 1000;
    /** Form fields other than files (partition, metadata) are small. */
    private static final int FIELD_BYTES = 64 * 1024;
    /** Thread-safe, and costly to build: one for every document body and metadata field, not one each. */
    private static final Jsonb JSON = JsonbBuilder.create();
    private static final Map<String, String> FORMATS = Map.of("text", "text/plain", "markdown", "text/markdown", "html", "text/html",
            "json", "application/json", "jsonl", "application/x-ndjson", "csv", "text/csv");

    @Inject
    CallerScope caller;

    @Inject
    DataPlane dataPlane;

    @Inject
    JobRunner jobs;

    @Inject
    UrlIngest urlIngest;

    @Context
    UriInfo uri;

    @POST
    @Path("documents")
    @IngestBody
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Ingest one JSON document given as text or as a url to fetch (answered when stored: 201, or 200 when"
            + " unchanged) or a batch of text documents (202 with a job)",
            description = "A {url} is fetched only over https from one of the tenant's ingest.allowedOrigins (or ingest.privateOrigins),"
                    + " without following redirects, within the server's timeout and byte limit; refusals are 400 (not an https URL),"
                    + " 403 (origin not allowed, or a private address), 413 (too large), 422 (redirect, error status) and 504 (timeout).")
    @APIResponse(responseCode = "201", description = "Stored: a new version is active. With a store that reads from replicas, the"
            + " Corpora-Consistency header carries a token: send it back on retrieve to see this version (read-your-writes)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestOutcome.class)))
    @APIResponse(responseCode = "200", description = "Unchanged (same content and metadata): skipped",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestOutcome.class)))
    @APIResponse(responseCode = "202", description = "A batch accepted as a job; Location is GET jobs/{id}",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Job.class)))
    public Response ingestJson(@PathParam("tenant") String tenantId, JsonValue body) {
        caller.actorFor(tenantId, Roles.WRITER, Roles.TENANT_ADMIN);
        if (body instanceof JsonObject object) {
            DocumentInput input = parse(object);
            TenantView view = writer(tenantId, input.partition);
            IngestRequest request = validated(input.url != null ? fetched(view.tenant(), input) : toRequest(input));
            IngestJob.Outcome outcome;
            try {
                outcome = view.ingest(request);
            } catch (IngestException refused) { // its own type and Retry-After, naming the document
                throw DataPlaneExceptionMappers.Ingest.problem(refused, Map.of("documentId", request.documentId()));
            }
            return ReadYourWrites.withToken(Response.status(outcome.status()).entity(IngestOutcome.of(outcome)), view).build();
        }
        if (!(body instanceof JsonArray array) || array.isEmpty()) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "the body must be a document object or a non-empty array of them");
        }
        if (array.size() > MAX_BATCH) {
            throw new ProblemException(413, "batch-too-large", "Batch too large", "a batch holds at most " + MAX_BATCH + " documents, got " + array.size());
        }
        List<DocumentInput> inputs = new ArrayList<>();
        for (JsonValue item : array) {
            if (!(item instanceof JsonObject object)) {
                throw new ProblemException(400, "invalid-request", "Invalid request", "every batch item must be a document object");
            }
            DocumentInput input = parse(object);
            if (input.url != null) {
                throw new ProblemException(400, "invalid-request", "Invalid request", "a batch holds text documents; post each {url} on its own");
            }
            inputs.add(input);
        }
        String partition = inputs.get(0).partition;
        if (inputs.stream().anyMatch(i -> !java.util.Objects.equals(i.partition, partition))) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "all documents of one batch must go to the same partition");
        }
        TenantView view = writer(tenantId, partition);
        List<IngestRequest> requests = new ArrayList<>();
        for (DocumentInput input : inputs) {
            requests.add(validated(toRequest(input)));
        }
        return accepted(jobs.submit(view, requests));
    }

    @POST
    @Path("documents")
    @IngestBody
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Upload files (parts named 'file'; optional 'partition' and 'metadata' JSON); answered 202 with a job",
            description = "File names may be relative paths; one that climbs ('..'), is absolute or holds control characters refuses"
                    + " the upload (400). Each file is limited by corpora.ingest.maxDocumentBytes, the request by corpora.ingest.maxRequestBytes (413).")
    @APIResponse(responseCode = "202", description = "A batch accepted as a job; Location is GET jobs/{id}",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Job.class)))
    public Response upload(@PathParam("tenant") String tenantId, @HeaderParam(HttpHeaders.CONTENT_TYPE) MediaType contentType,
                           @RequestBody(content = @Content(mediaType = MediaType.MULTIPART_FORM_DATA, schema = @Schema(type = SchemaType.OBJECT,
                                   properties = {
                                       @SchemaProperty(name = "file", type = SchemaType.ARRAY, description = "one or more files",
                                               implementation = byte[].class, format = "binary"),
                                       @SchemaProperty(name = "partition", type = SchemaType.STRING),
                                       @SchemaProperty(name = "metadata", type = SchemaType.STRING, description = "a JSON object")})))
                           InputStream body) throws IOException {
        caller.actorFor(tenantId, Roles.WRITER, Roles.TENANT_ADMIN);
        Tenant tenant = dataPlane.activeTenant(tenantId);
        dataPlane.limitIngests(tenant);
        String partition = null;
        Map<String, Object> metadata = Map.of();
        List<UploadedFile> files = new ArrayList<>();
        try {
            MultipartFormReader form = new MultipartFormReader(body, contentType.getParameters().get("boundary"));
            for (MultipartFormReader.PartHeaders part; (part = form.nextPart()) != null; ) {
                switch (part.name()) {
                    case "partition" -> partition = new String(form.content(FIELD_BYTES), StandardCharsets.UTF_8).strip();
                    case "metadata" -> metadata = parseMetadata(form.content(FIELD_BYTES));
                    case "file" -> {
                        String fileName = part.fileName() == null ? "upload" : part.fileName();
                        requireSafeFileName(fileName);
                        files.add(new UploadedFile(fileName, part.contentType(), fileContent(form, fileName)));
                    }
                    default -> throw new ProblemException(400, "invalid-request", "Invalid request", "unexpected form field '" + part.name() + "'");
                }
            }
        } catch (IllegalArgumentException | MultipartFormReader.MalformedException e) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "malformed multipart/form-data: " + e.getMessage());
        }
        if (files.isEmpty()) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "upload at least one part named 'file'");
        }
        List<IngestRequest> requests = new ArrayList<>();
        for (UploadedFile file : files) {
            MediaType type = file.mediaType();
            requests.add(validated(new IngestRequest(documentIdFor(file.name(), file.content()), file.name(), file.content(),
                    type == null ? "application/octet-stream" : base(type), type == null ? null : type.getParameters().get("charset"),
                    file.name(), metadata)));
        }
        // The write gate and the ingest quota were checked before the body was read.
        return accepted(jobs.submit(dataPlane.view(caller, tenantId, partition, Roles.WRITER, Roles.TENANT_ADMIN), requests));
    }

    private record UploadedFile(String name, String contentType, byte[] content) {
        MediaType mediaType() {
            try {
                return contentType == null ? null : MediaType.valueOf(contentType);
            } catch (IllegalArgumentException e) {
                throw new ProblemException(400, "invalid-request", "Invalid request", "file '" + name + "' has a malformed Content-Type");
            }
        }
    }

    private byte[] fileContent(MultipartFormReader form, String fileName) throws IOException {
        long limit = dataPlane.maxDocumentBytes();
        try {
            return form.content(limit);
        } catch (MultipartFormReader.PartTooLargeException e) {
            throw new ProblemException(413, "document-too-large", "Payload too large", "'" + documentIdFor(fileName, new byte[0])
                    + "' is larger than the " + limit + "-byte limit");
        }
    }

    /** The view of an ingest, with the write gate and the ingest quota checked once the tenant is known. */
    private TenantView writer(String tenantId, String partition) {
        TenantView view = dataPlane.view(caller, tenantId, partition, Roles.WRITER, Roles.TENANT_ADMIN);
        dataPlane.limitIngests(view.tenant());
        return view;
    }

    @GET
    @Path("documents")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "List the documents the caller may see (paginated by id)",
            description = "Documents the tenant's access filter hides from the caller are skipped: the page still holds 'limit'"
                    + " documents unless the end is reached, and 'next' (the 'after' of the next page) is null exactly at the end"
                    + " (or after " + TenantView.MAX_SCANNED_PER_PAGE + " registry rows were examined for one page).")
    public DocumentPage list(@PathParam("tenant") String tenantId, @QueryParam("partition") String partition,
                                    @QueryParam("after") String after, @QueryParam("limit") @DefaultValue("50") int limit,
                                    @QueryParam("status") String status, @QueryParam("source") String source) {
        caller.actorFor(tenantId, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        if (limit < 1 || limit > 500) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "limit must be between 1 and 500");
        }
        TenantView view = reader(tenantId, partition);
        TenantView.DocumentPage page = view.documents(after, limit, d -> (status == null || d.status().name().equalsIgnoreCase(status))
                && (source == null || source.equals(d.source())));
        return new DocumentPage(page.documents().stream().map(DocumentView::of).toList(), page.next());
    }

    @GET
    @Path("documents/{id}")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "One document's metadata, version, chunk count and status (id as one path segment)",
            description = ID_IN_PATH)
    public DocumentView get(@PathParam("tenant") String tenantId, @Parameter(description = ID_SEGMENT) @PathParam("id") String id, @QueryParam("partition") String partition) {
        return DocumentView.of(find(reader(tenantId, partition), id));
    }

    @GET
    @Path("document")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "One document's metadata, version, chunk count and status (any id, as the 'id' query parameter)",
            description = ID_IN_QUERY)
    public DocumentView getById(@PathParam("tenant") String tenantId, @Parameter(description = ID_PARAMETER, required = true) @QueryParam("id") String id, @QueryParam("partition") String partition) {
        return get(tenantId, requireId(id), partition);
    }

    @GET
    @Path("documents/{id}/chunks")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "The chunks of a document's active version (id as one path segment)", description = CHUNKS + " " + ID_IN_PATH)
    public DocumentChunks chunks(@PathParam("tenant") String tenantId, @Parameter(description = ID_SEGMENT) @PathParam("id") String id, @QueryParam("partition") String partition) {
        List<Chunk> found = reader(tenantId, partition).chunks(id).orElseThrow(() -> notFound(id));
        return new DocumentChunks(id, found.stream().map(ChunkView::of).toList());
    }

    @GET
    @Path("document/chunks")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "The chunks of a document's active version (any id, as the 'id' query parameter)", description = CHUNKS + " " + ID_IN_QUERY)
    public DocumentChunks chunksById(@PathParam("tenant") String tenantId, @Parameter(description = ID_PARAMETER, required = true) @QueryParam("id") String id, @QueryParam("partition") String partition) {
        return chunks(tenantId, requireId(id), partition);
    }

    @DELETE
    @Path("documents/{id}")
    @RolesAllowed({Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Delete a document and its chunks (id as one path segment)", description = DELETES + " " + ID_IN_PATH)
    public Response delete(@PathParam("tenant") String tenantId, @Parameter(description = ID_SEGMENT) @PathParam("id") String id, @QueryParam("partition") String partition) {
        TenantView view = dataPlane.view(caller, tenantId, partition, Roles.WRITER, Roles.TENANT_ADMIN);
        if (!view.delete(id)) {
            throw notFound(id);
        }
        return Response.noContent().build();
    }

    @DELETE
    @Path("document")
    @RolesAllowed({Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Delete a document and its chunks (any id, as the 'id' query parameter)", description = DELETES + " " + ID_IN_QUERY)
    public Response deleteById(@PathParam("tenant") String tenantId, @Parameter(description = ID_PARAMETER, required = true) @QueryParam("id") String id, @QueryParam("partition") String partition) {
        return delete(tenantId, requireId(id), partition);
    }

    /** {@code documents/a/b}: an id with '/' cannot be one path segment; say where it goes instead of a bare 404. */
    @GET
    @DELETE
    @Path("documents/{id}/{rest: .+}")
    @Operation(hidden = true)
    public Response idWithSlashInPath(@PathParam("tenant") String tenantId, @PathParam("id") String id, @PathParam("rest") String rest) {
        caller.actorFor(tenantId, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        throw new ProblemException(400, "invalid-document-path", "Invalid document path", "'documents/" + id + "/" + rest
                + "' is not a document route; a document id containing '/' is passed as a query parameter: document?id=" + id + "%2F"
                + rest.replace("/", "%2F") + " (and document/chunks?id=… for its chunks)");
    }

    private static final String ID_PARAMETER = "The document id, any characters (e.g. 'example.com/guides/a.md'), percent-encoded"
            + " as a query parameter value.";
    private static final String ID_SEGMENT = "The document id as one percent-encoded path segment; an id containing '/', '\\' or '#',"
            + " or the id '.' or '..', goes in the 'id' query parameter of the document?id=… form instead.";
    private static final String ID_IN_PATH = "The id is one path segment, percent-encoded. Ids containing '/', '\\' or '#', and the"
            + " ids '.' and '..', cannot be sent this way (servlet containers refuse or rewrite them in a path): use the 'id' query"
            + " parameter form (GET document?id=…, GET document/chunks?id=…, DELETE document?id=…), which takes any id.";
    private static final String ID_IN_QUERY = "Takes any document id, percent-encoded as a query parameter value (e.g. document?id="
            + "example.com%2Fguides%2Fa.md). Equivalent to the documents/{id} form for ids that fit in one path segment.";
    private static final String CHUNKS = "Only the chunks the caller may see, of the tenant's active embedder generation (one generation"
            + " even during a re-embed migration). A document the caller may not see is 404, exactly like a missing one.";
    private static final String DELETES = "A document the caller may not see is 404, exactly like a missing one, and is not deleted.";

    private TenantView reader(String tenantId, String partition) {
        return dataPlane.view(caller, tenantId, partition, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
    }

    private static String requireId(String id) {
        if (id == null || id.isEmpty()) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "the 'id' query parameter (the document id) is required");
        }
        return id;
    }

    /** A document refused (400) before it is accepted — a batch's before the batch is — when its metadata cannot be stored. */
    private IngestRequest validated(IngestRequest request) {
        dataPlane.validateIngest(request);
        return request;
    }

    private static DocumentRecord find(TenantView view, String id) {
        return view.document(id).orElseThrow(() -> notFound(id));
    }

    private static ProblemException notFound(String id) {
        return new ProblemException(404, "document-not-found", "Document not found", "no document '" + id + "' in this namespace");
    }

    private Response accepted(IngestJob job) {
        java.net.URI location = uri.getBaseUriBuilder().path("api/v1/tenants/{tenant}/jobs/{id}").build(job.tenant(), job.id());
        return Response.accepted(Job.of(job)).location(location).build();
    }

    private static DocumentInput parse(JsonObject object) {
        try {
            DocumentInput input = JSON.fromJson(object.toString(), DocumentInput.class);
            String named = input.id == null ? "" : " (document '" + input.id + "')";
            if ((input.text == null) == (input.url == null)) {
                throw new ProblemException(400, "invalid-request", "Invalid request", "a JSON document needs either 'text' or 'url'" + named);
            }
            if (input.url != null && input.format != null) {
                throw new ProblemException(400, "invalid-request", "Invalid request",
                        "'format' applies to 'text'; a fetched document's format comes from its Content-Type" + named);
            }
            return input;
        } catch (ProblemException e) {
            throw e;
        } catch (Exception e) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "malformed document object: " + e.getMessage());
        }
    }

    /** A {url} document: fetched now, under the tenant's ingest origins; its id defaults to the URL's host and path. */
    private IngestRequest fetched(Tenant tenant, DocumentInput input) {
        UrlFetcher.Fetched fetched = urlIngest.fetch(tenant, input.url);
        String id = input.id != null ? input.id : documentIdFor(fetched.url().getHost() + fetched.url().getPath(), fetched.content());
        String source = input.source != null ? input.source : fetched.url().toString();
        return new IngestRequest(id, source, fetched.content(), fetched.mediaType(), fetched.charset(), fetched.fileName(),
                input.metadata);
    }

    private static IngestRequest toRequest(DocumentInput input) {
        String format = input.format == null ? "text" : input.format.toLowerCase(Locale.ROOT);
        String mediaType = FORMATS.get(format);
        if (mediaType == null) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "format must be one of " + FORMATS.keySet() + ", got '" + input.format + "'");
        }
        byte[] bytes = input.text.getBytes(StandardCharsets.UTF_8);
        String id = input.id != null ? input.id : documentIdFor(input.source, bytes);
        return new IngestRequest(id, input.source, bytes, mediaType, "utf-8", null, input.metadata);
    }

    /**
     * A stable id from a name (an uploaded file's relative path, or a source) and the content, when the caller gives
     * none. Path segments are kept (so {@code a/readme.md} and {@code b/readme.md} stay distinct) but sanitised:
     * {@code .} and {@code ..} segments are dropped, so an id never looks like a traversal.
     */
    static String documentIdFor(String name, byte[] content) {
        List<String> segments = new ArrayList<>();
        for (String segment : (name == null ? "" : name.replace('\\', '/')).split("/")) {
            String clean = segment.replaceAll("[^A-Za-z0-9._-]", "_");
            if (!clean.isEmpty() && !clean.equals(".") && !clean.equals("..")) {
                segments.add(clean);
            }
        }
        String id = String.join("/", segments);
        if (!id.isBlank()) {
            return id.length() > 200 ? id.substring(id.length() - 200) : id;
        }
        try {
            return "doc-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A file name may be a relative path (folder uploads keep their tree), but never one that climbs ({@code ..}), is
     * absolute ({@code /etc/passwd}, {@code \\server\share}, {@code C:\…}) or carries control characters (NUL):
     * such an upload is refused whole, before anything is stored.
     */
    static void requireSafeFileName(String name) {
        String reason = null;
        if (name.chars().anyMatch(Character::isISOControl)) {
            reason = "contains a control character";
        } else if (name.startsWith("/") || name.startsWith("\\") || name.matches("^[A-Za-z]:.*")) {
            reason = "is an absolute path";
        } else if (java.util.Arrays.asList(name.split("[/\\\\]")).contains("..")) {
            reason = "climbs out of its folder ('..')";
        }
        if (reason != null) {
            throw new ProblemException(400, "invalid-file-name", "Invalid file name", "the file name '"
                    + name.replaceAll("\\p{Cntrl}", "?") + "' " + reason + "; give a relative path inside the uploaded folder");
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parseMetadata(byte[] json) {
        JsonBodies.requireParsable(json, "the 'metadata' field"); // the body's own check never saw this field
        try {
            Object parsed = JSON.fromJson(new String(json, StandardCharsets.UTF_8), Object.class);
            if (!(parsed instanceof Map<?, ?> map)) {
                throw new ProblemException(400, "invalid-request", "Invalid request", "the 'metadata' field must be a JSON object");
            }
            return (Map<String, Object>) map;
        } catch (ProblemException e) {
            throw e;
        } catch (Exception e) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "the 'metadata' field is not valid JSON: " + e.getMessage());
        }
    }

    private static String base(MediaType type) {
        return (type.getType() + "/" + type.getSubtype()).toLowerCase(Locale.ROOT);
    }
}
