package io.corpora.server.api;

import io.corpora.access.TenantView;
import io.corpora.answer.Answer;
import io.corpora.answer.AnswerCitation;
import io.corpora.answer.AnswerListener;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.server.Roles;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.rest.ProblemBodies;
import io.corpora.server.security.CallerScope;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import jakarta.ws.rs.ext.Providers;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /api/v1/tenants/{tenant}/ask}: an answer from the tenant's generator, grounded in the passages the caller
 * may see and citing them, whole or as server-sent events. The route holds only its request's {@link TenantView}, so the
 * access decision, hook, partition binding and floor are those of retrieve.
 */
@Path("/api/v1/tenants/{tenant}")
@RequestScoped
@Tag(name = "answers")
public class AskResource {

    private static final Logger LOG = Logger.getLogger(AskResource.class.getName());
    private static final MediaType EVENT_STREAM = MediaType.valueOf(MediaType.SERVER_SENT_EVENTS);

    @Inject
    CallerScope caller;

    @Inject
    DataPlane dataPlane;

    @Context
    Providers providers;

    /** One {@code delta} event: the next piece of the answer. */
    public record Delta(String text) {}

    /** The {@code retrieval} event: the numbered passages the model is given (empty: a "no source" answer follows). */
    public record Retrieved(List<AnswerCitation> context) {}

    @POST
    @RetrieveBody
    @Path("ask")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({MediaType.APPLICATION_JSON, MediaType.SERVER_SENT_EVENTS})
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @SecurityRequirement(name = "jwt")
    @Operation(summary = "Answer a question from the passages the caller may see, citing them as [n]",
            description = "Retrieves exactly as retrieve does (access decision, filter hook, partition binding, floor), numbers the"
                    + " passages into a delimited context block the model is told holds no instructions, and answers with the tenant's"
                    + " generator. No passage found: a 'no source' answer without calling the model (diagnostics.noSource). Citation"
                    + " markers naming no passage are removed (diagnostics.removedCitations); citations lists only the cited passages,"
                    + " in order of first citation. With stream: true the answer is text/event-stream: event 'retrieval' (the numbered"
                    + " context), events 'delta' ({text}), then 'done' (the whole answer as without stream, usage and diagnostics) or"
                    + " 'error' (a problem+json body); closing the connection cancels the model call. A tenant without a generator"
                    + " answers 501 problem+json saying how to configure one.")
    @APIResponse(responseCode = "200", description = "The answer",
            content = {@Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = AskResponse.class)),
                    @Content(mediaType = MediaType.SERVER_SENT_EVENTS)})
    @APIResponse(responseCode = "501", description = "The tenant has no generator configured")
    public Response ask(@PathParam("tenant") String tenantId, AskRequest request) {
        caller.actorFor(tenantId, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        if (request == null) {
            throw new BadRequestException("a JSON body with a question is required");
        }
        RetrieveCommand question = request.toCommand(dataPlane.retrieveLimits());
        TenantView view = dataPlane.view(caller, tenantId, request.partition(), Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        view.requireGenerator();
        if (!request.streamed()) {
            return Response.ok(AskResponse.of(view.ask(question, AnswerListener.NONE)), MediaType.APPLICATION_JSON_TYPE).build();
        }
        StreamingOutput events = out -> {
            try (Jsonb jsonb = JsonbBuilder.create()) {
                EventStream stream = new EventStream(out, jsonb);
                try {
                    Answer answer = view.ask(question, new AnswerListener() {
                        @Override
                        public void retrieved(List<AnswerCitation> context) {
                            stream.send("retrieval", new Retrieved(context));
                        }

                        @Override
                        public void delta(String text) {
                            stream.send("delta", new Delta(text));
                        }
                    });
                    stream.send("done", AskResponse.of(answer));
                } catch (CancellationException | UncheckedIOException gone) {
                    LOG.fine(() -> "ask stream of tenant " + tenantId + " ended early: " + gone.getMessage());
                } catch (RuntimeException e) {
                    stream.send("error", ProblemBodies.of(providers, e));
                }
            } catch (UncheckedIOException gone) {
                LOG.fine(() -> "ask stream of tenant " + tenantId + " closed: " + gone.getMessage());
            } catch (Exception e) {
                LOG.log(Level.WARNING, "closing the JSON-B context of an ask stream", e);
            }
        };
        return Response.ok(events, EVENT_STREAM).header("Cache-Control", "no-cache").header("X-Accel-Buffering", "no").build();
    }
}
