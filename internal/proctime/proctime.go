// Package proctime tells when the running process started and how much CPU
// it has used, as the kernel counts them: a figure measured from Start
// includes the exec, the dynamic linking and the initialisation of the
// runtime and of every package, which a time taken in main leaves out.
// attache measures its start-up with it, attachectl its time budget.
package proctime
