#!/usr/bin/env Rscript
# Reference fits for the synthetic fixtures in internal/stats/testdata.
#
# A file with a `logit` column is a scored run: the paper's mixed model by
# lme4, REML, default lmerControl (what lme4 users get). A file with `yes` and
# `trials` columns is a sampled-decision run: binomial glm with a fixed effect
# per question, iterated to a tight tolerance so its own convergence error is
# far below the tests' tolerances.
#
# Usage (from internal/stats): Rscript testdata/lme4/fit.R testdata/*.csv.gz
# Each foo.csv.gz gets foo.reference.json beside it.

suppressPackageStartupMessages({
  library(lme4)
  library(jsonlite)
})

# R's column names for the seven coefficients -> the project's names.
coef_names <- c(
  "age_z" = "age",
  "genderfemale" = "female",
  "gendernon-binary" = "non_binary",
  "raceBlack" = "black",
  "raceAsian" = "asian",
  "raceHispanic" = "hispanic",
  "raceNative American" = "native_american"
)

prepare <- function(d) {
  # Sample sd (n - 1) over the rows present, as the Go code does.
  d$age_z <- (d$age - mean(d$age)) / sd(d$age)
  d$gender <- factor(d$gender, levels = c("male", "female", "non-binary"))
  d$race <- factor(d$race, levels = c("white", "Black", "Asian", "Hispanic", "Native American"))
  stopifnot(!anyNA(d$gender), !anyNA(d$race))
  d$q <- factor(d$q)
  d
}

coef_table <- function(est, se) {
  out <- list()
  for (k in names(coef_names)) {
    out[[coef_names[[k]]]] <- list(estimate = unname(est[[k]]), se = unname(se[[k]]))
  }
  out
}

versions <- list(
  R = R.version.string,
  lme4 = as.character(packageVersion("lme4")),
  Matrix = as.character(packageVersion("Matrix"))
)

for (path in commandArgs(trailingOnly = TRUE)) {
  d <- prepare(read.csv(gzfile(path), check.names = FALSE, stringsAsFactors = FALSE))
  res <- list(file = basename(path), rows = nrow(d), questions = nlevels(d$q), versions = versions)
  t0 <- proc.time()[["elapsed"]]
  if ("logit" %in% names(d)) {
    fit <- lmer(logit ~ 1 + age_z + gender + race + (1 + age_z + gender + race | q),
                data = d, REML = TRUE)
    est <- fixef(fit)
    se <- sqrt(diag(as.matrix(vcov(fit))))
    res$lme4_reml <- coef_table(est, se)
    res$intercept <- list(estimate = unname(est[["(Intercept)"]]), se = unname(se[["(Intercept)"]]))
    res$reml_criterion <- unname(REMLcrit(fit))
    res$sigma2 <- sigma(fit)^2
    res$theta <- unname(getME(fit, "theta"))
    res$singular <- isSingular(fit)
    res$optimizer <- fit@optinfo$optimizer
    res$convergence_messages <- as.list(fit@optinfo$conv$lme4$messages)
  } else {
    fit <- glm(cbind(yes, trials - yes) ~ age_z + gender + race + q,
               family = binomial, data = d,
               control = glm.control(epsilon = 1e-14, maxit = 100))
    est <- coef(fit)
    se <- sqrt(diag(vcov(fit)))
    res$glm <- coef_table(est, se)
    res$deviance <- fit$deviance
    res$iterations <- fit$iter
    res$converged <- fit$converged
  }
  res$seconds <- proc.time()[["elapsed"]] - t0
  out <- sub("\\.csv\\.gz$", ".reference.json", path)
  writeLines(toJSON(res, auto_unbox = TRUE, digits = NA, pretty = TRUE), out)
  cat(out, "\n")
}
