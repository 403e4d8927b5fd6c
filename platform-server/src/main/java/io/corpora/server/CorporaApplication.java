package io.corpora.server;

import jakarta.annotation.security.DeclareRoles;
import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.auth.LoginConfig;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.SecuritySchemeType;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.security.SecurityScheme;

/** The REST application. Authentication is MicroProfile JWT; roles come from the token's {@code groups} claim. */
@ApplicationPath("/")
@LoginConfig(authMethod = "MP-JWT", realmName = "corpora")
@OpenAPIDefinition(info = @Info(title = "Corpora", version = "v1",
        description = "Multi-tenant retrieval for LLM prompts: ingest documents, retrieve cited passages."))
@SecurityScheme(securitySchemeName = "jwt", type = SecuritySchemeType.HTTP, scheme = "bearer", bearerFormat = "JWT",
        description = "A JWT whose `tenant` claim scopes the caller and whose `groups` claim carries its roles.")
@DeclareRoles({Roles.PLATFORM_ADMIN, Roles.TENANT_ADMIN, Roles.WRITER, Roles.READER})
public class CorporaApplication extends Application {}
