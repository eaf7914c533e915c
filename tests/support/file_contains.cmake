# cmake -DFILE=F -DPART=P -P file_contains.cmake: fails unless file F holds the whole text
# of file P (the README's programs are examples/readme's, to the letter).
file(READ "${FILE}" text)
file(READ "${PART}" part)
string(FIND "${text}" "${part}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${FILE} does not hold ${PART} as it is")
endif()
