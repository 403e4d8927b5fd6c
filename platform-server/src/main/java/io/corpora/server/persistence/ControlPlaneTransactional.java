package io.corpora.server.persistence;

import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Every method of the bean runs in a JTA transaction, joining the caller's if one is active — {@code @Transactional}'s
 * {@code REQUIRED} — for repositories whose refusals are answers, not failures ({@link ControlPlaneTransactionInterceptor}).
 */
@InterceptorBinding
@Inherited
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
public @interface ControlPlaneTransactional {}
